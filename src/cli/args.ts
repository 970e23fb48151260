import { InvalidArgumentError } from 'commander';

/** Commander parser for `--limit`-style options. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new InvalidArgumentError(`expected a positive whole number, got "${value}"`);
  return n;
}
