import { spawn } from 'node:child_process';

/** Runs the real entry point (src/main.ts) on a fresh DATA_DIR and waits for its "Loupe started" line. */
export async function startMain(dataDir: string) {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const logs: string[] = [];
  await new Promise<void>((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      logs.push(chunk.toString());
      if (logs.join('').includes('"msg":"Loupe started"')) resolve();
    });
    void exited.then((code) => reject(new Error(`server exited early (${code}): ${logs.join('')}`)));
  });
  return { proc, exited, logs };
}
