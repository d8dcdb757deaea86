/**
 * Redis for the job tests: the standalone server of scripts/services.sh, and a three-node Redis Cluster started
 * here from Debian's `redis-server` on free ports (and stopped afterwards). With CI=true a missing Redis fails the
 * run; otherwise its tests are skipped with a printed reason (like PostgreSQL in test/support/databases.ts).
 */
import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { promisify } from "node:util"
import { Effect } from "effect"
import { Redis } from "ioredis"

export const REDIS_URL = process.env.GLOSS_TEST_REDIS_URL ?? "redis://127.0.0.1:6379"

const run = promisify(execFile)

const problemWithStandalone = async (): Promise<string | undefined> => {
  const client = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0 })
  // connect() only says "Connection is closed."; the socket's error says why.
  let socketError: Error | undefined
  client.on("error", (error: Error) => (socketError ??= error))
  try {
    await client.connect()
    await client.ping()
    return undefined
  } catch (error) {
    return (socketError ?? (error instanceof Error ? error : new Error(String(error)))).message.replace(/\.$/, "")
  } finally {
    client.disconnect()
  }
}

const problemWithBinaries = (): string | undefined => {
  for (const binary of ["redis-server", "redis-cli"]) {
    const probe = spawnSync(binary, ["--version"], { encoding: "utf8" })
    if (probe.error !== undefined || probe.status !== 0) return `${binary} is not installed`
  }
  return undefined
}

const missing = (what: string, problem: string | undefined): boolean => {
  if (problem === undefined) return false
  if (process.env.CI === "true") throw new Error(`${what} is required with CI=true: ${problem}`)
  console.warn(`[gloss tests] Skipping the ${what} job tests: ${problem}. Run scripts/services.sh to include them.`)
  return true
}

export const standaloneAvailable = !missing(`Redis (${REDIS_URL})`, await problemWithStandalone())
export const clusterAvailable = !missing("Redis Cluster", problemWithBinaries())

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer()
    server.once("error", () => resolve(false))
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
  })

/** Ports whose cluster bus port (port + 10000) is free too. */
const freePorts = async (count: number): Promise<ReadonlyArray<number>> => {
  const ports: Array<number> = []
  while (ports.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 30_000)
    if (!ports.includes(port) && (await canListen(port)) && (await canListen(port + 10_000))) ports.push(port)
  }
  return ports
}

const ping = async (port: number) =>
  (await run("redis-cli", ["-p", String(port), "ping"]).catch(() => ({ stdout: "" }))).stdout.trim() === "PONG"

const clusterOk = async (port: number) =>
  (await run("redis-cli", ["-p", String(port), "cluster", "info"]).catch(() => ({ stdout: "" }))).stdout
    .includes("cluster_state:ok")

const until = async (check: () => Promise<boolean>, what: string) => {
  for (let i = 0; i < 200; i++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`Redis Cluster: timed out waiting for ${what}`)
}

const stop = async (children: ReadonlyArray<ChildProcess>, dir: string) => {
  await Promise.all(children.map((child) =>
    child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => {
      child.once("exit", resolve)
      child.kill("SIGTERM")
    })
  ))
  fs.rmSync(dir, { recursive: true, force: true })
}

/** A fresh three-master cluster on loopback; its URL names one node. Stopped with the scope. */
export const redisCluster = Effect.acquireRelease(
  Effect.promise(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gloss-redis-cluster-"))
    const ports = await freePorts(3)
    const children = ports.map((port) =>
      spawn("redis-server", [
        "--port", String(port), "--bind", "127.0.0.1", "--cluster-enabled", "yes",
        "--cluster-config-file", `nodes-${port}.conf`, "--dir", dir, "--save", "", "--appendonly", "no"
      ], { stdio: "ignore" })
    )
    // If the test process dies without running finalizers, do not leave servers behind.
    const killAll = () => children.forEach((child) => child.kill("SIGKILL"))
    process.once("exit", killAll)
    try {
      for (const port of ports) await until(() => ping(port), `node ${port} to start`)
      await run("redis-cli", [
        "--cluster", "create", ...ports.map((port) => `127.0.0.1:${port}`), "--cluster-replicas", "0", "--cluster-yes"
      ])
      for (const port of ports) await until(() => clusterOk(port), `node ${port} to join`)
    } catch (error) {
      await stop(children, dir)
      throw error
    }
    return { url: `redis://127.0.0.1:${ports[0]}`, children, dir, killAll }
  }),
  ({ children, dir, killAll }) =>
    Effect.promise(async () => {
      process.removeListener("exit", killAll)
      await stop(children, dir)
    })
)
