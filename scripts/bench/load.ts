// One measurement: autocannon against one route for a fixed duration after a warm-up, each request
// with a freshly chosen path (random user id or email). Latency percentiles are computed here from
// every response time autocannon reports (fractional milliseconds), not from its histogram, which
// rounds to whole milliseconds; the warm-up's responses are not counted.
import autocannon, { type Instance } from 'autocannon'

export type Measurement = {
  rps: number
  p50Ms: number
  p99Ms: number
  /** Non-2xx responses plus connection errors and timeouts. */
  errors: number
  statusCodes: Record<string, number>
  requests: number
}

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
  nextPath: () => string
}): Promise<Measurement> {
  const times: number[] = []
  const statusCodes: Record<string, number> = {}
  const instance = autocannon({
    url: options.baseUrl,
    connections: options.connections,
    duration: options.durationSeconds,
    ...(options.warmupSeconds > 0 ? { warmup: { connections: options.connections, duration: options.warmupSeconds } } : {}),
    headers: options.headers,
    requests: [{
      method: 'GET',
      setupRequest: (request) => {
        request.path = options.nextPath()
        return request
      },
    }],
  })
  running = instance
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    times.push(ms)
    const key = String(status)
    statusCodes[key] = (statusCodes[key] ?? 0) + 1
  })
  try {
    const result = await instance
    const sorted = Float64Array.from(times).toSorted()
    return {
      rps: result.requests.total / result.duration,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      errors: result.non2xx + result.errors,
      statusCodes,
      requests: result.requests.total,
    }
  } finally {
    running = undefined
  }
}
