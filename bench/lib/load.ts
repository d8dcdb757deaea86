import autocannon from "autocannon"

export interface LoadResult {
  readonly requestsPerSecond: number
  readonly latencyMs: { readonly p50: number; readonly p99: number }
  readonly non2xx: number
  readonly errors: number
}

/** `connections` concurrent keep-alive connections hammering one request for `seconds`. */
export const load = (options: {
  readonly url: string
  readonly connections: number
  readonly seconds: number
  readonly method?: "GET" | "POST" | "PUT"
  readonly headers?: Record<string, string>
  readonly body?: string
}): Promise<LoadResult> =>
  new Promise((resolve, reject) => {
    autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.seconds,
        method: options.method ?? "GET",
        headers: options.headers ?? {},
        ...(options.body === undefined ? {} : { body: options.body })
      },
      (error, result) => {
        if (error) return reject(error)
        resolve({
          requestsPerSecond: Math.round(result.requests.average),
          latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
          non2xx: result.non2xx,
          errors: result.errors
        })
      }
    )
  })
