/** The cases where a statistic is at its limits or undefined, for every question type (see scenarios.ts). */
import { fixed, questions, type Scenario } from "./scenarios.js"

const _ = null
const r = (...ranks: Array<number>) => ["w", "x", "y", "z"].slice(0, ranks.length).map((value, i) => ({ value, rank: ranks[i] }))
const s = (label: string, start: number, end: number) => ({ label, start, end })

export const edgeCases: ReadonlyArray<Scenario> = [
  fixed("label: all agree, two categories", questions.label(), [["pos", "pos", "pos"], ["neg", "neg", "neg"], ["pos", "pos", "pos"]]),
  fixed("label: one category only", questions.label(), [["pos", "pos", "pos"], ["pos", "pos", _], ["pos", "pos", "pos"]]),
  fixed("label: missing answers, single and unanswered records", questions.label(), [
    ["pos", _, _], [_, _, _], ["pos", "neg", _], ["neg", "neg", "pos"], [_, "neu", "neu"], ["mix", _, "pos"]
  ]),
  fixed("label: 2 and 3 answers per record", questions.label(), [
    ["pos", "pos", _], ["neg", "pos", "neg"], [_, "neu", "neu"], ["pos", _, "neg"], ["neg", "neg", "neg"]
  ]),
  fixed("label: every record two answers of three annotators", questions.label(), [
    ["pos", "pos", _], ["neg", _, "neg"], [_, "neu", "pos"], ["pos", _, "neg"], [_, "neg", "neg"], ["neu", "neu", _]
  ]),
  fixed("label: one compared record", questions.label(), [["pos", "neg"], ["neu", _]]),
  fixed("label: nothing compared", questions.label(), [["pos", _], [_, "neg"], [_, _]]),
  fixed("label: a pair with one category each", questions.label(), [["pos", "neg", "pos"], ["pos", "neg", "neg"], ["pos", "neg", "pos"]]),
  fixed("multi: all agree", questions.multi(), [[["a", "b"], ["b", "a"]], [["c"], ["c"]], [["a"], ["a"]]]),
  fixed("multi: one set only", questions.multi(), [[["a"], ["a"]], [["a"], ["a"]]]),
  fixed("multi: subsets, overlaps and disjoint sets", questions.multi(), [
    [["a", "b"], ["a"], ["a", "b", "c"]], [["d"], ["e"], _], [["a", "c"], ["c", "d"], ["c"]], [["e"], _, _]
  ]),
  fixed("rating: all agree", questions.rating(), [[1, 1, 1], [5, 5, 5], [3, 3, _]]),
  fixed("rating: one value only", questions.rating(), [[4, 4], [4, 4], [4, _]]),
  fixed("rating: two values, missing answers", questions.rating(), [[1, 5, _], [5, 5, 1], [_, 1, 1], [5, _, _]]),
  fixed("ranking: ties, all agree", questions.ranking(), [[r(1, 1, 2, 3), r(1, 1, 2, 3)], [r(2, 1, 3, 4), r(2, 1, 3, 4)]]),
  fixed("ranking: every option tied", questions.ranking(), [[r(1, 1, 1, 1), r(1, 1, 1, 1)], [r(1, 1, 1, 1), r(1, 1, 1, 1)]]),
  fixed("ranking: ties against orders, 2 and 3 answers", questions.ranking(), [
    [r(1, 2, 3, 4), r(1, 1, 3, 4), r(4, 3, 2, 1)], [r(1, 1, 1, 1), r(1, 2, 3, 4), _], [r(2, 2, 1, 1), _, r(1, 2, 2, 1)]
  ]),
  fixed("span: no spans at all", questions.span(), [[[], []], [[], []]]),
  fixed("span: one annotator marks nothing", questions.span(), [[[s("PER", 0, 4)], []], [[s("ORG", 5, 9)], []]]),
  fixed("span: overlapping spans, shifted boundaries", questions.span(), [
    [[s("PER", 0, 4), s("PER", 2, 6), s("ORG", 8, 12)], [s("PER", 0, 5), s("ORG", 8, 12)], [s("LOC", 0, 4)]],
    [[s("LOC", 3, 7)], [s("LOC", 3, 7), s("LOC", 3, 7)], _]
  ]),
  fixed("text: case and spaces", questions.text(), [["Fine", " fine ", "FINE"], ["ok", "not ok", _], ["a", _, _]])
]
