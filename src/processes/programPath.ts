/**
 * Which file a process spec starts. A program is a bare name (`claude`, `node`) looked up on the
 * child's own PATH, or an absolute path; anything else (`./x`, `sh -c …`, `a b`, `-x`) is refused
 * before anything runs, so a command line can never be smuggled in as a program name.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ProcessError } from '../core/runtime/processErrors';

const bareName = /^[A-Za-z0-9_+@][A-Za-z0-9._+@-]*$/;

/** Throws `invalidProgram` unless `program` is a bare name or an absolute path without NUL. */
export function validateProgram(program: string): void {
  if (program.includes('\0')) throw new ProcessError('invalidProgram', 'The program name contains a NUL byte.');
  if (path.isAbsolute(program)) return;
  if (!bareName.test(program)) {
    throw new ProcessError(
      'invalidProgram',
      `"${program}" is not a program name: give a bare name found on PATH (e.g. claude) or an absolute path, never a command line.`,
      { program },
    );
  }
}

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path that will be executed: `program` itself when absolute, else the first
 * executable `<dir>/<program>` of `pathVariable` (the child's PATH, not ours). Relative PATH
 * entries are ignored so the working folder cannot supply the program.
 */
export function resolveProgram(program: string, pathVariable: string | undefined): string {
  validateProgram(program);
  if (path.isAbsolute(program)) {
    if (isExecutableFile(program)) return program;
    throw new ProcessError('programNotFound', `${program} is not an executable file.`, { program });
  }
  const extensions = process.platform === 'win32' ? ['', '.exe', '.cmd', '.bat'] : [''];
  for (const dir of (pathVariable ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    for (const ext of extensions) {
      const candidate = path.join(dir, program + ext);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  throw new ProcessError(
    'programNotFound',
    `${program} was not found on the PATH given to the process. Install it or add its folder to PATH.`,
    { program },
  );
}
