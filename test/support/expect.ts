import { expect } from "@effect/vitest"
import { Effect } from "effect"

export const FORBIDDEN = {
  detail: { code: "argilla.api.errors::ForbiddenOperationError", params: { detail: "Operation not allowed" } }
}

/** Runs a typed-client call that must fail, and checks the tagged error the client decoded. */
export const expectFailure = <A, E extends { readonly _tag: string }, R>(
  effect: Effect.Effect<A, E, R>,
  tag: string,
  detail?: string | RegExp
) =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(effect)
    expect(error._tag).toBe(tag)
    if (detail !== undefined) {
      const actual = (error as unknown as { readonly detail: string }).detail
      if (typeof detail === "string") expect(actual).toBe(detail)
      else expect(actual).toMatch(detail)
    }
    return error
  })
