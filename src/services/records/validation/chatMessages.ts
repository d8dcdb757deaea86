/** Chat field values: a conversation as a list of `{role, content}` messages. */
import { Either } from "effect"
import type { ChatLimits } from "./context.js"
import { type Check, codePointLength, fail, isArray, isJsonObject, ok, show } from "./common.js"

const CHAT_MAX_MESSAGES = 500

/** Roles are identifiers ("user", "assistant", "tool"), shown as labels in the UI; whitespace would make them ambiguous. */
const WHITESPACE = /\s/u

const within = (length: number, min: number, max: number) => length >= min && length <= max

const validateMessage = (field: string, index: number, message: unknown, limits: ChatLimits): Check => {
  const at = `chat field '${field}' message ${index}`
  if (!isJsonObject(message)) return fail(`${at} must be an object with role and content, found ${show(message)}`)
  const { content, role } = message
  if (typeof role !== "string") return fail(`${at} role must be a string, found ${show(role)}`)
  if (typeof content !== "string") return fail(`${at} content must be a string, found ${show(content)}`)
  if (WHITESPACE.test(role)) return fail(`${at} role ${show(role)} must not contain whitespace`)
  const roleLength = codePointLength(role)
  if (!within(roleLength, limits.minRoleLength, limits.maxRoleLength)) {
    return fail(
      `${at} role ${show(role)} must have ${limits.minRoleLength} to ${limits.maxRoleLength} characters, found ${roleLength}`
    )
  }
  const contentLength = codePointLength(content)
  if (!within(contentLength, limits.minMessageLength, limits.maxMessageLength)) {
    return fail(
      `${at} content must have ${limits.minMessageLength} to ${limits.maxMessageLength} characters, found ${contentLength}`
    )
  }
  return ok
}

export const validateChatMessages = (field: string, value: unknown, limits: ChatLimits): Check =>
  Either.gen(function*() {
    if (!isArray(value)) return yield* fail(`chat field '${field}' value must be a list of messages, found ${show(value)}`)
    if (value.length > CHAT_MAX_MESSAGES) {
      return yield* fail(`chat field '${field}' value must have at most ${CHAT_MAX_MESSAGES} messages, found ${value.length}`)
    }
    for (const [index, message] of value.entries()) yield* validateMessage(field, index, message, limits)
  })
