import { CommanderError } from 'commander';
import { buildProgram } from './program';
import { reportError } from './output';

async function main(argv: string[]): Promise<void> {
  const program = buildProgram(argv);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError && (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')) {
      process.exitCode = 0;
      return;
    }
    process.exitCode = reportError(err, argv.includes('--json'));
  }
}

void main(process.argv);
