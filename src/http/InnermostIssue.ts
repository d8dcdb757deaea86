/**
 * A failed union says why each member refused the input: for `optional(NullOr(Int))` given `"x"` that is "Expected
 * number", "Expected null" and "Expected undefined". pydantic names only the error of the member that came closest,
 * and so does this: `innermost` keeps, in every union, the member whose failure lies deepest in the input (then one
 * that failed on a rule rather than on the kind of value, then the last such: the lax reading of a strict member).
 * `null` and `undefined` members are named only when nothing else is left.
 */
import { Array as Arr, ParseResult, SchemaAST as AST } from "effect"

type Issue = ParseResult.ParseIssue

const listOf = (issues: ParseResult.SingleOrNonEmpty<Issue>): ReadonlyArray<Issue> => ("_tag" in issues ? [issues] : issues)

/** How far into the input an issue lies, and whether it is about a rule (1) rather than about the kind (0). */
const reach = (issue: Issue): readonly [depth: number, rank: number] => {
  switch (issue._tag) {
    case "Pointer": {
      const [depth, rank] = reach(issue.issue)
      return [depth + (Array.isArray(issue.path) ? issue.path.length : 1), rank]
    }
    case "Refinement":
      return issue.kind === "Predicate" ? [0, 1] : reach(issue.issue)
    case "Transformation":
      return reach(issue.issue)
    case "Composite": {
      const reaches = listOf(issue.issues).map(reach)
      return reaches.reduce((best, next) => (compare(next, best) > 0 ? next : best))
    }
    case "Type":
      return [0, issue.message === undefined ? 0 : 1]
    default:
      return [0, 1]
  }
}

const compare = (a: readonly [number, number], b: readonly [number, number]) => a[0] - b[0] || a[1] - b[1]

/** A member that refused the input only for not being `null` or `undefined`. */
const isAbsence = (issue: Issue) =>
  issue._tag === "Type" &&
  (issue.ast._tag === "UndefinedKeyword" || (issue.ast._tag === "Literal" && issue.ast.literal === null))

const pickMember = (union: ParseResult.Composite, members: ReadonlyArray<Issue>): Issue => {
  const present = members.filter((member) => !isAbsence(member))
  const candidates = present.length > 0 ? present : members
  let best = candidates[0]!
  let bestReach = reach(best)
  for (const member of candidates.slice(1)) {
    const memberReach = reach(member)
    if (compare(memberReach, bestReach) >= 0) [best, bestReach] = [member, memberReach]
  }
  // Several members refused the kind of value outright: say which kinds would do, without null or undefined.
  const outright = candidates.filter((member): member is ParseResult.Type =>
    member._tag === "Type" && member.message === undefined
  )
  if (bestReach[0] === 0 && bestReach[1] === 0 && outright.length > 1) {
    return new ParseResult.Type(AST.Union.make(outright.map((member) => member.ast)), union.actual)
  }
  return best
}

/** `issue` with every union failure reduced to the failure of its closest member. */
export const innermost = (issue: Issue): Issue => {
  switch (issue._tag) {
    case "Pointer":
      return new ParseResult.Pointer(issue.path, issue.actual, innermost(issue.issue))
    case "Refinement":
      return new ParseResult.Refinement(issue.ast, issue.actual, issue.kind, innermost(issue.issue))
    case "Transformation":
      return new ParseResult.Transformation(issue.ast, issue.actual, issue.kind, innermost(issue.issue))
    case "Composite": {
      const issues = listOf(issue.issues).map(innermost)
      if (issue.ast._tag === "Union") return pickMember(issue, issues)
      return new ParseResult.Composite(issue.ast, issue.actual, Arr.isNonEmptyReadonlyArray(issues) ? issues : issue.issues, issue.output)
    }
    default:
      return issue
  }
}
