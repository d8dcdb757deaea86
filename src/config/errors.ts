import { ConfigError } from "effect"

/** Every leaf of a (possibly nested) ConfigError as `NAME: what is wrong`, in the order the variables were read. */
export const configErrorLines = (error: ConfigError.ConfigError): ReadonlyArray<string> => {
  const lines: Array<string> = []
  const visit = (e: ConfigError.ConfigError): void => {
    switch (e._op) {
      case "And":
      case "Or":
        visit(e.left)
        visit(e.right)
        return
      case "InvalidData":
      case "MissingData":
      case "Unsupported":
      case "SourceUnavailable": {
        const line = `${e.path.join("_") || "(configuration)"}: ${e.message}`
        if (!lines.includes(line)) lines.push(line)
      }
    }
  }
  visit(error)
  return lines
}

/** The one message printed when start-up stops on bad configuration: no stack trace, every bad variable listed. */
export const formatConfigError = (error: ConfigError.ConfigError): string => {
  const lines = configErrorLines(error)
  const heading = lines.length === 1
    ? "Gloss cannot start: 1 environment variable is invalid."
    : `Gloss cannot start: ${lines.length} environment variables are invalid.`
  return [heading, ...lines.map((line) => `  - ${line}`), "Every variable: docs/reference/configuration.md."].join("\n")
}
