// HEALTHCHECK of the Gloss image (the slim base has node, not curl): exit 0 when the server's liveness probe
// answers 200. Liveness, not readiness: an unreachable database or search engine is reported by
// /api/v1/health/ready, and restarting Gloss would not bring it back.
const port = process.env.GLOSS_PORT || "6900"
const host = process.env.GLOSS_HOST || "0.0.0.0"
// The server listens on every interface by default; ask it on the loopback one.
const target = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host
const base = (process.env.GLOSS_BASE_URL || "").replace(/^\/+|\/+$/g, "")
const url = `http://${target}:${port}${base === "" ? "" : `/${base}`}/api/v1/health/live`

try {
  const response = await fetch(url, { signal: AbortSignal.timeout(4000) })
  if (!response.ok) console.error(`${url} answered ${response.status}`)
  process.exit(response.ok ? 0 : 1)
} catch (error) {
  console.error(`${url} did not answer: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
