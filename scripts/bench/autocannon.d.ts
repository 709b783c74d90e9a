// The part of autocannon's programmatic API the benchmark uses (the package ships no types).
// Shapes follow autocannon 8's README ("API" and "Results").
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  export type RequestParams = {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string | Buffer
    [key: string]: unknown
  }

  export type Request = RequestParams & {
    /** Mutates and returns the request before it is sent; falsy restarts the sequence. */
    setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams | null | undefined
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string>,
    ) => void
  }

  export type Options = {
    url: string
    connections?: number
    duration?: number
    pipelining?: number
    timeout?: number
    method?: string
    headers?: Record<string, string>
    requests?: Request[]
    warmup?: { connections?: number; duration?: number }
    title?: string
  }

  /** An hdr-histogram-percentiles-obj summary. */
  export type Histogram = {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    total: number
    p50: number
    p90: number
    p99: number
    [percentile: string]: number
  }

  export type Result = {
    title?: string
    url: string
    connections: number
    duration: number
    requests: Histogram & { sent: number }
    latency: Histogram & { totalCount: number }
    throughput: Histogram
    errors: number
    timeouts: number
    mismatches: number
    non2xx: number
    resets: number
    statusCodeStats: Record<string, { count: number }>
    warmup?: Result
  }

  export type Instance = EventEmitter &
    PromiseLike<Result> & {
      stop(): void
    }

  /** Without a callback the instance is also a promise of the result. */
  function autocannon(options: Options): Instance
  export default autocannon
}
