import { EXIT, InterruptedError } from './exit-codes.js';

/**
 * An AbortSignal for one long operation: the first Ctrl-C (or SIGTERM) aborts it, so the command can save its
 * state and say how to go on; a second one exits at once.
 */
export function interruptible(message: string): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    controller.abort(new InterruptedError(message));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** Runs `work` with a signal from `interruptible`; an abort surfaces as the InterruptedError, whatever the SDK threw. */
export async function withInterrupt<T>(message: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { signal, dispose } = interruptible(message);
  try {
    return await work(signal);
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    throw err;
  } finally {
    dispose();
  }
}
