// One measurement: autocannon against one route for a fixed duration after a warm-up, each request
// freshly chosen (a random user id or email, a prepared deal to POST). Latency percentiles are computed here from
// every response time autocannon reports (fractional milliseconds), not from its histogram, which
// rounds to whole milliseconds; the warm-up's responses are not counted. The server's CPU time is read
// when the measured run starts and when it ends (autocannon runs the warm-up separately first).
import autocannon, { type Instance } from 'autocannon'

export type Measurement = {
  rps: number
  p50Ms: number
  p99Ms: number
  /** Non-2xx responses plus connection errors and timeouts. */
  errors: number
  statusCodes: Record<string, number>
  requests: number
  /**
   * The server process's CPU time (user + system, microseconds) over the measured window, when
   * `serverCpu` was given. Read over HTTP as the window opens and closes, so it is off by the few
   * requests in flight then (well under 1% of a 10-second window).
   */
  serverCpuMicros?: number
}

/** One request of a measurement; `body` is sent as JSON. */
export type LoadRequest = { method: 'GET' | 'POST'; path: string; body?: string }

let running: Instance | undefined

/** Stops the measurement in progress, if any (used when the benchmark is interrupted). */
export function stopLoad(): void {
  running?.stop?.()
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank] as number
}

export async function measure(options: {
  baseUrl: string
  connections: number
  durationSeconds: number
  warmupSeconds: number
  headers: Record<string, string>
  next: () => LoadRequest
  /** Every response's status and headers (warm-up included), e.g. to collect created ids. */
  onResponse?: (status: number, headers: Record<string, string | string[] | undefined>) => void
  /** The server process's CPU time so far, in microseconds. */
  serverCpu?: () => Promise<number>
}): Promise<Measurement> {
  const times: number[] = []
  const statusCodes: Record<string, number> = {}
  const instance = autocannon({
    url: options.baseUrl,
    connections: options.connections,
    duration: options.durationSeconds,
    ...(options.warmupSeconds > 0
      ? { warmup: { connections: options.connections, duration: options.warmupSeconds } }
      : {}),
    headers: options.headers,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const next = options.next()
          request.method = next.method
          request.path = next.path
          if (next.body !== undefined) {
            request.body = next.body
            request.headers = { ...request.headers, 'content-type': 'application/json' }
          }
          return request
        },
        ...(options.onResponse
          ? {
              onResponse: (status: number, _body: string, _context: unknown, headers: Record<string, string>) =>
                options.onResponse?.(status, headers),
            }
          : {}),
      },
    ],
  })
  running = instance
  // The instance's own 'start' is the measured run's (the warm-up has a tracker of its own).
  let cpuAtStart: Promise<number> | undefined
  instance.on('start', () => {
    cpuAtStart ??= options.serverCpu?.()
  })
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    times.push(ms)
    const key = String(status)
    statusCodes[key] = (statusCodes[key] ?? 0) + 1
  })
  try {
    const result = await instance
    const cpuAtEnd = cpuAtStart && options.serverCpu ? await options.serverCpu() : undefined
    const serverCpuMicros = cpuAtEnd === undefined ? undefined : cpuAtEnd - (await cpuAtStart!)
    const sorted = Float64Array.from(times).toSorted()
    return {
      rps: result.requests.total / result.duration,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      errors: result.non2xx + result.errors,
      statusCodes,
      requests: result.requests.total,
      ...(serverCpuMicros === undefined ? {} : { serverCpuMicros }),
    }
  } finally {
    running = undefined
  }
}
