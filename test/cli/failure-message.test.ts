/**
 * The one sentence an operator reads when start-up fails on something unexpected: never a schema's tree.
 */
import { Cause, Effect, Option, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { failureMessage } from "../../src/cli/failureMessage.js"

const decodeFailure = <A, I>(schema: Schema.Schema<A, I>, value: unknown) =>
  Effect.runSync(Effect.flip(Schema.decodeUnknown(schema)(value)))

describe("failureMessage", () => {
  it("a value that does not decode (a defect, as repositories raise it) is one line naming the field and what was wrong", () => {
    const error = decodeFailure(Schema.Struct({ n: Schema.Number }), { n: "1" })
    const message = Option.getOrThrow(failureMessage(Cause.die(error), "Gloss cannot start"))
    expect(message).toBe(
      "Gloss cannot start: a value read from the database or GLOSS_HOME_PATH had an unexpected form " +
        "(Expected number, actual \"1\" at \"n\"): check that GLOSS_DATABASE_URL and GLOSS_HOME_PATH belong to this " +
        "version of Gloss, or report this as a bug"
    )
    expect(message).not.toContain("\n")
    expect(message).not.toContain("└─")
  })

  it("a decode failure without a path still says what was wrong, on one line", () => {
    const error = decodeFailure(Schema.Number, "x")
    const message = Option.getOrThrow(failureMessage(Cause.fail(error), "gloss users list failed"))
    expect(message).toMatch(/^gloss users list failed: a value read from the database or GLOSS_HOME_PATH had an unexpected form \(Expected number, actual "x"\)/)
    expect(message).not.toContain("\n")
  })
})

describe("failureMessage, files", () => {
  it("a file Gloss cannot create names the path, why, and the setting behind it", () => {
    const error = Object.assign(new Error("ENOTDIR: not a directory, mkdir '/srv/file/gloss'"), {
      code: "ENOTDIR",
      path: "/srv/file/gloss"
    })
    expect(Option.getOrThrow(failureMessage(Cause.die(error), "Gloss cannot start"))).toBe(
      "Gloss cannot start: cannot use /srv/file/gloss (ENOTDIR: not a directory): check that its directory exists and " +
        "this process may write there (Gloss's files live under GLOSS_HOME_PATH)"
    )
  })
})
