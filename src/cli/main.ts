import './zodJitless';
import { CommanderError } from 'commander';
import { buildProgram } from './program';
import { reportError } from './output';

async function main(argv: string[]): Promise<void> {
  try {
    const program = await buildProgram(argv);
    await program.parseAsync(argv);
  } catch (err) {
    if (
      err instanceof CommanderError &&
      (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
    ) {
      process.exitCode = 0;
      return;
    }
    process.exitCode = reportError(err, argv.includes('--json'));
  }
}

/**
 * A reader that goes away (`agent-ledger … | head`) closes the pipe: what is left to print is
 * dropped, the command still finishes its work and closes the ledger, instead of dying on an
 * unhandled EPIPE.
 */
function dropOutputOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') return;
    throw err;
  });
}

dropOutputOnClosedPipe(process.stdout);
dropOutputOnClosedPipe(process.stderr);
void main(process.argv);
