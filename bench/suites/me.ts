/**
 * Authenticated `GET /api/v1/me` at 32 connections for 10 s: Gloss (the key resolved exactly as the server does,
 * through the database), against the machine's ceiling (bare node:http) and the framework's (a minimal Effect
 * HttpApi server with an in-memory key lookup), measured one after the other in the same run.
 */
import * as path from "node:path"
import { load, type LoadResult } from "../lib/load.js"
import { BENCH_API_KEY, ROOT, type Running, startGloss, startProcess } from "../lib/processes.js"

const CONNECTIONS = 32
const SECONDS = 10

const measure = async (server: Running): Promise<LoadResult> => {
  const request = { url: `${server.url}/api/v1/me`, headers: { "x-gloss-api-key": BENCH_API_KEY } }
  try {
    await load({ ...request, connections: CONNECTIONS, seconds: 2 }) // warm-up (JIT, caches)
    return await load({ ...request, connections: CONNECTIONS, seconds: SECONDS })
  } finally {
    await server.stop()
  }
}

export const meSuite = async () => {
  const bare = await measure(await startProcess(path.join(ROOT, "bench/servers/bare.ts"), [], {}))
  const minimal = await measure(await startProcess(path.join(ROOT, "bench/servers/minimal-effect.ts"), [], {}))
  const gloss = await measure(await startGloss())
  return {
    name: "GET /api/v1/me, authenticated by API key",
    connections: CONNECTIONS,
    seconds: SECONDS,
    gloss,
    bareNodeHttp: bare,
    minimalEffectHttpApi: minimal,
    ratios: {
      glossToMinimalEffect: Number((gloss.requestsPerSecond / minimal.requestsPerSecond).toFixed(2)),
      glossToBareNode: Number((gloss.requestsPerSecond / bare.requestsPerSecond).toFixed(2))
    },
    target: "gloss ≥ 0.5 × minimal Effect HttpApi",
    meetsTarget: gloss.requestsPerSecond >= 0.5 * minimal.requestsPerSecond
  }
}
