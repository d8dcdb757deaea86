/**
 * Parsers for single environment variables. Each one names what it accepts, so that a bad value stops start-up
 * with a message the operator can act on (see `formatConfigError`). Empty strings count as unset: container
 * tooling commonly passes `VAR=` for "no value".
 */
import { Config, ConfigError, Either, Option, Redacted } from "effect"

type Parse<A> = (raw: string) => Either.Either<A, string>

/** A variable parsed by `parse`; an unset or empty variable is `None`, a bad one an InvalidData error. */
const optionalWith = <A>(name: string, parse: Parse<A>): Config.Config<Option.Option<A>> =>
  Config.nested(
    Config.string().pipe(
      Config.option,
      Config.mapOrFail((value) => {
        if (Option.isNone(value) || value.value.trim() === "") return Either.right(Option.none<A>())
        return Either.mapBoth(parse(value.value.trim()), {
          onLeft: (message) => ConfigError.InvalidData([], message),
          onRight: Option.some
        })
      })
    ),
    name
  )

const withDefault = <A>(name: string, parse: Parse<A>, fallback: A): Config.Config<A> =>
  optionalWith(name, parse).pipe(Config.map(Option.getOrElse(() => fallback)))

const quote = (raw: string) => JSON.stringify(raw)

const parseInteger = (min: number, max: number): Parse<number> => (raw) => {
  const n = Number(raw)
  return /^-?\d+$/.test(raw) && n >= min && n <= max
    ? Either.right(n)
    : Either.left(`expected an integer from ${min} to ${max}, got ${quote(raw)}`)
}

const parseNumber = (min: number, max: number): Parse<number> => (raw) => {
  const n = Number(raw)
  return raw !== "" && Number.isFinite(n) && n >= min && n <= max
    ? Either.right(n)
    : Either.left(`expected a number from ${min} to ${max}, got ${quote(raw)}`)
}

const TRUE = new Set(["true", "1", "yes", "on", "t", "y"])
const FALSE = new Set(["false", "0", "no", "off", "f", "n"])

/**
 * Python-style booleans (`True`, `False`, `1`, `0`, …), case-insensitive: Argilla's documented values are written that
 * way.
 */
const parseBoolean: Parse<boolean> = (raw) => {
  const value = raw.toLowerCase()
  if (TRUE.has(value)) return Either.right(true)
  if (FALSE.has(value)) return Either.right(false)
  return Either.left(`expected true or false (also 1/0, yes/no, on/off), got ${quote(raw)}`)
}

const parseLiteral = <const L extends string>(literals: ReadonlyArray<L>): Parse<L> => (raw) => {
  const found = literals.find((literal) => literal === raw.toLowerCase())
  return found !== undefined
    ? Either.right(found)
    : Either.left(`expected one of ${literals.join(", ")}, got ${quote(raw)}`)
}

export const integer = (name: string, fallback: number, range: { min: number; max: number }) =>
  withDefault(name, parseInteger(range.min, range.max), fallback)

/** An integer that may be left unset (the caller decides what unset means). */
export const optionalInteger = (name: string, range: { min: number; max: number }) =>
  optionalWith(name, parseInteger(range.min, range.max))

export const number = (name: string, fallback: number, range: { min: number; max: number }) =>
  withDefault(name, parseNumber(range.min, range.max), fallback)

export const boolean = (name: string, fallback: boolean) => withDefault(name, parseBoolean, fallback)

export const optionalBoolean = (name: string) => optionalWith(name, parseBoolean)

export const literal = <const L extends string>(name: string, literals: ReadonlyArray<L>) =>
  optionalWith(name, parseLiteral(literals))

export const string = (name: string, fallback: string) => withDefault(name, Either.right, fallback)

export const optionalString = (name: string) => optionalWith(name, Either.right)

/** A secret: never printed, not even in an error message. */
export const optionalSecret = (name: string) =>
  optionalWith(name, (raw) => Either.right(Redacted.make(raw)))

export const secretWith = <A>(name: string, parse: (raw: string) => Either.Either<A, string>) =>
  optionalWith(name, parse)

/** Parses a value that may contain credentials; the message never repeats the value. */
export const httpUrl = (raw: string): Either.Either<URL, string> => {
  try {
    const url = new URL(raw)
    return url.protocol === "http:" || url.protocol === "https:"
      ? Either.right(url)
      : Either.left(`expected an http:// or https:// URL, got the scheme ${quote(url.protocol)}`)
  } catch {
    return Either.left("expected an http:// or https:// URL")
  }
}

export const parseWith = optionalWith
