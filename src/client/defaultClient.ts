/**
 * The default client, as the Argilla SDK has one: every successful construction becomes the default, whichever
 * face built it. The only module-level mutable state in `src/`: the SDK's API needs it, and nothing else may keep
 * state outside a layer. An entry remembers who owns it (the Effect-made service or the
 * Promise `Client`), so that closing a client clears the slot only if it is still the default.
 */
import { Effect } from "effect"
import type { Client } from "./Client.js"
import type { OptionsError } from "./Errors.js"
import type { GlossClientShape } from "./makeClient.js"

export interface DefaultEntry {
  readonly owner: object
  /** The service, or how the Promise client that owns the entry builds it. */
  readonly service: Effect.Effect<GlossClientShape, OptionsError>
  /** The Promise face, once one exists for this client. */
  readonly face: Client | undefined
}

let current: DefaultEntry | undefined

export const currentDefault = (): DefaultEntry | undefined => current

export const setDefault = (entry: DefaultEntry): void => {
  current = entry
}

/** Records the Promise face of the default client, if `owner` still is the default. */
export const attachFace = (owner: object, face: Client): void => {
  if (current?.owner === owner) current = { ...current, face }
}

export const clearDefault = (owner: object): void => {
  if (current?.owner === owner || current?.face === owner) current = undefined
}

/** An Effect-made client is the default until its scope closes. */
export const becomeDefault = (service: GlossClientShape) =>
  Effect.acquireRelease(
    Effect.sync(() => setDefault({ owner: service, service: Effect.succeed(service), face: undefined })),
    () => Effect.sync(() => clearDefault(service))
  )
