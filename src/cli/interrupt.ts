/**
 * Ctrl-C (SIGINT) or SIGTERM while a command waits. Without a listener
 * either signal ends the process at once, silently: a `submit --wait` would
 * leave its user without the job it had submitted. Listening for the first
 * one only, a second ends the process as usual (whoever asks twice means it).
 */

/** The reason the wait ended; the command says what became of its work. */
export class Interrupted extends Error {
  override name = 'Interrupted';
  constructor(readonly signal: NodeJS.Signals) {
    super(`interrupted by ${signal}`);
  }
}

export interface Interruption {
  /** Rejects with Interrupted at the first SIGINT or SIGTERM; never resolves. */
  interrupted: Promise<never>;
  /** Stops listening. */
  dispose(): void;
}

export function listenForInterruption(): Interruption {
  let onSignal: ((signal: NodeJS.Signals) => void) | undefined;
  const interrupted = new Promise<never>((_, reject) => {
    onSignal = (signal) => {
      dispose();
      reject(new Interrupted(signal));
    };
  });
  // Heard or not, it must not be an unhandled rejection.
  interrupted.catch(() => undefined);
  const dispose = () => {
    process.off('SIGINT', onSignal!);
    process.off('SIGTERM', onSignal!);
  };
  process.once('SIGINT', onSignal!);
  process.once('SIGTERM', onSignal!);
  return { interrupted, dispose };
}
