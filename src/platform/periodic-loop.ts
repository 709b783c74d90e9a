// A background loop around one pass of work (the automatic processes' scheduler, the report runs):
// a pass now, then one every `intervalMs` after the previous pass ends (passes never overlap);
// started by the server, stopped when the app closes. Domain-free: the pass is the caller's.

export type PeriodicLoop = {
  start(handlers?: { onError?: (err: unknown) => void }): void
  /** Runs a pass soon (work started on demand); nothing while stopped or while a pass runs. */
  wake(): void
  /** Stops the loop; waits for the pass in progress. */
  stop(): Promise<void>
  readonly running: boolean
}

export function createPeriodicLoop(pass: () => Promise<unknown>, intervalMs: number): PeriodicLoop {
  let timer: NodeJS.Timeout | undefined
  let inPass: Promise<unknown> | undefined
  let stopped = true
  let onError: (err: unknown) => void = () => {}
  function arm(ms: number) {
    timer = setTimeout(() => void run(), ms)
    // The loop never keeps a process alive by itself.
    timer.unref()
  }
  async function run() {
    timer = undefined
    inPass = pass().catch((err: unknown) => onError(err))
    await inPass
    inPass = undefined
    if (!stopped) arm(intervalMs)
  }
  return {
    start(handlers = {}) {
      if (!stopped) return
      stopped = false
      onError = handlers.onError ?? onError
      arm(0)
    },
    wake() {
      if (stopped || inPass || timer === undefined) return
      clearTimeout(timer)
      arm(0)
    },
    async stop() {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
      await inPass
    },
    get running() {
      return !stopped
    },
  }
}
