import readline from 'node:readline/promises';
import { Writable } from 'node:stream';
import { UsageError } from './exit-codes.js';

/** Asks on the terminal (stderr), the answer unechoed for a secret; without a terminal, names the option to pass instead. */
export async function ask(question: string, options: { secret?: boolean; fallback?: string; option: string }): Promise<string> {
  if (!process.stdin.isTTY) throw new UsageError(`${options.option} is required (no terminal to ask on)`);
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = readline.createInterface({ input: process.stdin, output, terminal: true });
  try {
    const shown = options.fallback ? `${question} [${options.fallback}]: ` : `${question}: `;
    const pending = rl.question(shown);
    muted = options.secret === true;
    const answer = (await pending).trim();
    if (muted) process.stderr.write('\n');
    return answer || options.fallback || '';
  } finally {
    rl.close();
  }
}
