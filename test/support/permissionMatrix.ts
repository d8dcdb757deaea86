/**
 * The machinery of the permission matrix (test/http/permission-matrix.test.ts): what a row of its table says, the
 * operations of the served OpenAPI document, sending one row's request as one caller, judging the answer against
 * what src/services/Policy.ts grants, and printing the matrix.
 */
import { Effect } from "effect"
import { type Action, grantOf } from "../../src/services/Policy.js"
import { type Caller, CALLERS, type CallerName, type World } from "./permissionWorld.js"
import { raw, type TestServer } from "./server.js"

export interface Request {
  readonly params?: Readonly<Record<string, string>>
  readonly query?: string
  readonly json?: unknown
  readonly form?: Readonly<Record<string, string>>
  /** Headers that replace the caller's (a row that must not act as the world's owner itself). */
  readonly headers?: Readonly<Record<string, string>>
}

/** `public`: no credentials needed. `signedIn`: any valid credentials. Otherwise Policy actions, all needed. */
export type Access = "public" | "signedIn" | { readonly all: ReadonlyArray<Action>; readonly author?: CallerName }

export interface Case {
  readonly access: Access
  readonly note?: string
  readonly request: (world: World, caller: Caller) => Request | Effect.Effect<Request, never, TestServer>
  /** Statuses other than 2xx an allowed call may get: about the input or the configuration, never the caller. */
  readonly accept?: ReadonlyArray<number>
  /** For a 200 whose body carries the verdict (per-item bulk results): whether the body says allowed. */
  readonly judge?: (body: unknown) => boolean
  /** Checks on an allowed answer's body (what it must not show this caller): a problem, or undefined. */
  readonly check?: (body: unknown, caller: Caller, world: World) => string | undefined
}

export type Verdict = "public" | "401" | "allow" | "deny"

/** What Policy.ts says `caller` gets for a row with `access` (every target lives in a workspace of the members). */
const verdict = (access: Access, caller: Caller): Verdict => {
  const role = caller.role
  if (access === "public") return "public"
  if (role === undefined) return "401"
  if (access === "signedIn") return "allow"
  const granted = (action: Action) => {
    const grant = grantOf(role, action)
    return grant === "yes" || (grant === "member" && caller.member)
  }
  return access.author === caller.name || access.all.every(granted) ? "allow" : "deny"
}

export interface Cell {
  readonly caller: CallerName
  readonly status: number
  readonly verdict: Verdict
  readonly problem?: string
}

export const judgeCell = (c: Case, world: World, caller: Caller, status: number, body: unknown): Cell => {
  const v = verdict(c.access, caller)
  const cell = (problem?: string): Cell => ({ caller: caller.name, status, verdict: v, ...(problem ? { problem } : {}) })
  const ok = status >= 200 && status < 300
  // A 2xx means allowed, unless the row reads the verdict from the body (per-item results).
  const allowed = ok && (c.judge === undefined || c.judge(body))
  if (status >= 500) return cell(`${status} (server error)`)
  if (v === "401") return status === 401 ? cell() : cell(`expected 401, got ${status}`)
  if (v === "deny") {
    if (allowed) return cell(`expected 403, got ${status} (data exposed or changed)`)
    return status === 403 || ok ? cell() : cell(`expected 403, got ${status}`)
  }
  if (allowed) return cell(c.check?.(body, caller, world))
  if (ok) return cell("allowed, but the body says denied")
  return c.accept?.includes(status) ? cell() : cell(`expected 2xx, got ${status}: ${JSON.stringify(body).slice(0, 200)}`)
}

export const send = (method: string, template: string, request: Request, caller: Caller) => {
  const params = request.params ?? {}
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`${method} ${template}: the row gives no value for {${name}}`)
    return encodeURIComponent(value)
  })
  const body = request.form !== undefined
    ? { body: new URLSearchParams(request.form).toString(), type: "application/x-www-form-urlencoded" }
    : request.json !== undefined
    ? { body: JSON.stringify(request.json), type: "application/json" }
    : undefined
  return raw(`${path}${request.query === undefined ? "" : `?${request.query}`}`, {
    method,
    redirect: "manual",
    headers: { ...caller.headers, ...request.headers, ...(body === undefined ? {} : { "content-type": body.type }) },
    ...(body === undefined ? {} : { body: body.body })
  })
}

export interface Operation {
  readonly id: string
  readonly method: string
  readonly path: string
  readonly open: boolean
}

/** Every operation of the served OpenAPI document. */
export const operations = Effect.gen(function*() {
  const doc = (yield* raw("/api/v1/openapi.json")).body as {
    readonly paths: Record<string, Record<string, { operationId?: string; security?: ReadonlyArray<unknown> }>>
  }
  return Object.entries(doc.paths).flatMap(([path, item]): ReadonlyArray<Operation> =>
    Object.entries(item).flatMap(([method, op]) =>
      op.operationId === undefined
        ? []
        : [{ id: op.operationId, method: method.toUpperCase(), path, open: (op.security ?? []).length === 0 }]
    )
  )
})

const SHORT: Record<CallerName, string> = {
  anonymous: "anon",
  badKey: "badkey",
  annotatorMember: "ann+",
  annotatorOutsider: "ann-",
  adminMember: "adm+",
  adminOutsider: "adm-",
  owner: "owner",
  ownerKeyBadBearer: "own+bad",
  ownerKeyEmptyKey: "own+\"\"",
  ownerKeyOtherToken: "own+tok"
}

export interface Line {
  readonly label: string
  readonly access: string
  readonly cells: ReadonlyArray<Cell>
}

export const describeAccess = (access: Access) =>
  typeof access === "string" ? access : access.all.join("+") + (access.author === undefined ? "" : " | author")

export const render = (lines: ReadonlyArray<Line>) => {
  const width = Math.max(...lines.map((l) => l.label.length))
  const accessWidth = Math.max(...lines.map((l) => l.access.length))
  const callers = CALLERS.map((c) => SHORT[c].padStart(7)).join("")
  const header = `${"operation".padEnd(width)}  ${"needs".padEnd(accessWidth)}  ${callers}`
  const rows = lines.map((l) =>
    `${l.label.padEnd(width)}  ${l.access.padEnd(accessWidth)}  ${
      l.cells.map((cell) => `${cell.problem ? "!" : ""}${cell.status}`.padStart(7)).join("")
    }`
  )
  return [header, ...rows, "", "! = not what Policy.ts says (see the failures)"].join("\n")
}
