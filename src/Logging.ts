/**
 * The process's logger: one compact line per entry, text or JSON (`GLOSS_LOG_FORMAT`), filtered by
 * `GLOSS_LOG_LEVEL`. Values that are `Redacted` print as `<redacted>`, so secrets stay out of logs.
 */
import { Cause, HashMap, Layer, Logger, LogLevel } from "effect"
import type { LogFormat, LogLevelName } from "./Config.js"

const levels: Record<LogLevelName, LogLevel.LogLevel> = {
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  error: LogLevel.Error,
  none: LogLevel.None
}

const text = (value: unknown): string =>
  typeof value === "string" ? value : Array.isArray(value) ? value.map(text).join(" ") : String(value)

const lineLogger = (format: LogFormat) =>
  Logger.make(({ annotations, cause, date, logLevel, message }) => {
    const fields: Record<string, unknown> = {}
    for (const [key, value] of HashMap.toEntries(annotations)) fields[key] = value
    const failure = Cause.isEmpty(cause) ? undefined : Cause.pretty(cause, { renderErrorCause: true })
    const line = format === "json"
      ? JSON.stringify({ time: date.toISOString(), level: logLevel.label, message: text(message), ...fields, cause: failure })
      : [
        date.toISOString(),
        logLevel.label.padEnd(5),
        text(message),
        ...Object.entries(fields).map(([key, value]) => `${key}=${text(value)}`),
        failure === undefined ? "" : `\n${failure}`
      ].filter((part) => part !== "").join(" ")
    process.stdout.write(line + "\n")
  })

export const LoggingLive = (level: LogLevelName, format: LogFormat) =>
  Layer.merge(
    Logger.replace(Logger.defaultLogger, lineLogger(format)),
    Logger.minimumLogLevel(levels[level])
  )

