import { describe, expect, it } from "vitest"
import { actionFor, HELP, KEYS, pickKey } from "../../src/keyboard/shortcuts.js"

const key = (k: string, mods: Partial<{ shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({
  key: k,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods
})

describe("the shortcut map", () => {
  it("maps each annotation action to its key", () => {
    expect(actionFor(key("Enter"), false)).toEqual({ _tag: "submit" })
    expect(actionFor(key("s", { ctrlKey: true }), false)).toEqual({ _tag: "draft" })
    expect(actionFor(key("s", { metaKey: true }), false)).toEqual({ _tag: "draft" })
    expect(actionFor(key("z", { ctrlKey: true }), false)).toEqual({ _tag: "undo" })
    expect(actionFor(key("z", { metaKey: true }), false)).toEqual({ _tag: "undo" })
    expect(actionFor(key("Z", { ctrlKey: true, shiftKey: true }), false)).toBeUndefined()
    expect(actionFor(key("Backspace"), false)).toEqual({ _tag: "discard" })
    expect(actionFor(key("ArrowRight"), false)).toEqual({ _tag: "nextRecord" })
    expect(actionFor(key("ArrowLeft"), false)).toEqual({ _tag: "previousRecord" })
    expect(actionFor(key("ArrowDown"), false)).toEqual({ _tag: "nextQuestion" })
    expect(actionFor(key("ArrowUp"), false)).toEqual({ _tag: "previousQuestion" })
    expect(actionFor(key("Enter", { shiftKey: true }), false)).toEqual({ _tag: "enterQuestion" })
    expect(actionFor(key("?", { shiftKey: true }), false)).toEqual({ _tag: "help" })
    expect(actionFor(key("Escape"), false)).toEqual({ _tag: "leave" })
  })

  it("picks options 1…9 and 0 for the tenth", () => {
    expect(actionFor(key("1"), false)).toEqual({ _tag: "pick", index: 0 })
    expect(actionFor(key("9"), false)).toEqual({ _tag: "pick", index: 8 })
    expect(actionFor(key("0"), false)).toEqual({ _tag: "pick", index: 9 })
    expect(pickKey(0)).toBe("1")
    expect(pickKey(9)).toBe("0")
    expect(pickKey(10)).toBeUndefined()
  })

  it("fires nothing while typing in a text box, except Escape to leave it", () => {
    for (const k of ["Enter", "Backspace", "1", "ArrowRight", "ArrowDown", "?", "a"]) {
      expect(actionFor(key(k), true)).toBeUndefined()
    }
    expect(actionFor(key("s", { ctrlKey: true }), true)).toBeUndefined()
    // In a text box Ctrl+Z is the box's own undo.
    expect(actionFor(key("z", { ctrlKey: true }), true)).toBeUndefined()
    expect(actionFor(key("Escape"), true)).toEqual({ _tag: "leave" })
  })

  it("ignores browser and system combinations", () => {
    expect(actionFor(key("r", { ctrlKey: true }), false)).toBeUndefined()
    expect(actionFor(key("ArrowLeft", { altKey: true }), false)).toBeUndefined()
    expect(actionFor(key("1", { ctrlKey: true }), false)).toBeUndefined()
  })

  it("documents every key printed on a button in the help sheet", () => {
    const documented = HELP.map((row) => row.keys).join(" ")
    for (const printed of Object.values(KEYS)) expect(documented).toContain(printed.replace("Ctrl+S", "Ctrl+S"))
  })
})
