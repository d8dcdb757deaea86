import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { sanitize, spaceUrl } from "../../src/deploy/sanitize.js"
import { isBuilding, isStopped } from "../../src/deploy/SpaceStage.js"

describe("Space stages (the seven the SDK knows)", () => {
  const table = [
    ["RUNNING_APP_STARTING", true, false],
    ["RUNNING_BUILDING", true, false],
    ["BUILDING", true, false],
    ["APP_STARTING", true, false],
    ["RUNNING", false, false],
    ["PAUSED", false, true],
    ["STOPPED", false, true]
  ] as const

  for (const [stage, building, stopped] of table) {
    it(`${stage}: building ${building}, stopped ${stopped}`, () => {
      expect(isBuilding(stage)).toEqual(Either.right(building))
      expect(isStopped(stage)).toEqual(Either.right(stopped))
    })
  }

  for (const stage of ["NO_APP_FILE", "CONFIG_ERROR", "BUILD_ERROR", "RUNTIME_ERROR", "DELETING", "running", ""]) {
    it(`${JSON.stringify(stage)} fails both rules with InvalidSpaceStage naming the stage`, () => {
      for (const rule of [isBuilding, isStopped]) {
        const error = Either.getLeft(rule(stage))
        expect(error._tag).toBe("Some")
        if (error._tag === "Some") {
          expect(error.value._tag).toBe("InvalidSpaceStage")
          expect(error.value.stage).toBe(stage)
          expect(error.value.message).toBe(`Space configuration is wrong and in stage: ${stage}`)
        }
      }
    })
  }
})

describe("Space URL sanitisation (as deploy_on_spaces builds the URL)", () => {
  it("replaces every character that is not a letter, digit or hyphen, lower-cases and trims hyphens", () => {
    expect(sanitize("gloss")).toBe("gloss")
    expect(sanitize("My.Space")).toBe("my-space")
    expect(sanitize("my_space_v2")).toBe("my-space-v2")
    expect(sanitize("UPPER-Case")).toBe("upper-case")
    expect(sanitize("__private.")).toBe("private")
    expect(sanitize("-.-edge-.-")).toBe("edge")
    expect(sanitize("a b/c@d")).toBe("a-b-c-d")
    expect(sanitize("été")).toBe("t")
  })

  it("builds https://<org>-<repo>.hf.space/ with a trailing slash", () => {
    expect(spaceUrl("alice", "gloss")).toBe("https://alice-gloss.hf.space/")
    expect(spaceUrl("My_Org.", "_Annotate.Demo_")).toBe("https://my-org-annotate-demo.hf.space/")
  })
})
