/**
 * The agreement page end to end, in headless Chromium over a real Gloss: three annotators answered a label, a
 * multi-label and a span question (agreementSeed.ts). The owner's page shows the figures, the annotator × annotator
 * matrix and each annotator as the server computes them (read from the API in the test, never written here), and
 * follows a new submitted answer without a reload; an annotator without review rights gets no page until the owner
 * ticks "Reviewer" in the workspace's members; the export dialog offers CoNLL for the span question and downloads it.
 * The screens are checked at 1280 and 400 px in three themes (teamChecks.ts).
 */
import { readFileSync } from "node:fs"
import { FetchHttpClient } from "@effect/platform"
import { Effect, ManagedRuntime } from "effect"
import type { Browser, Locator, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AgreementFigure, QuestionAgreement } from "../../../src/domain/Review.js"
import { OWNER, TestServer, TestServerLive } from "../../../test/support/server.js"
import { figureName } from "../../src/screens/agreement/figures.js"
import { AGREEMENT_TEXTS, type AgreementSeeded, answerValues, CAT_LATE_ANSWER, seedAgreement } from "./agreementSeed.js"
import { buildUi, hasChromium, launch, photograph, signIn } from "./browser.js"
import { clientFor } from "./seed.js"
import { checkScreen } from "./teamChecks.js"

if (!hasChromium) console.warn("ui e2e (agreement): skipped, no Chromium at /usr/bin/chromium (apt-get install chromium)")

const runtime = ManagedRuntime.make(TestServerLive("sqlite"))
let url = ""
let seeded: AgreementSeeded
let browser: Browser
/** The owner's agreement page, kept open from the first test to the second. */
let ownerPage: Page | undefined

const api = (key: string) => Effect.runPromise(clientFor(url, key).pipe(Effect.provide(FetchHttpClient.layer)))
const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)

/** The server's own report, as the page asks for it (every record, every question). */
const report = async () => {
  const owner = await api(OWNER.apiKey)
  return run(owner.review.agreement({ path: { id: seeded.datasetId }, payload: {} }))
}

const questionOf = (questions: ReadonlyArray<QuestionAgreement>, name: string): QuestionAgreement => {
  const found = questions.find((q) => q.question === name)
  if (found === undefined) throw new Error(`the report has no question ${name}`)
  return found
}

/** How the page writes a value: two decimals, a true minus sign, a dash for none (independent of the page's code). */
const shown = (value: number | null) => {
  if (value === null) return "—"
  const text = value.toFixed(2)
  return text === "-0.00" ? "0.00" : text.replace("-", "−")
}

const signedIn = async (path: string, username: string, password: string) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light" })
  const page = await context.newPage()
  await page.goto(`${url}${path}`)
  await page.waitForURL(/\/sign-in\?redirect=/)
  await signIn(page, username, password)
  await page.waitForURL((u) => !u.pathname.endsWith("/sign-in"))
  return page
}

const section = (page: Page, question: string) => page.locator(`section[data-question="${question}"]`)

/** Each row of a table as its cells' texts, keyed by the row header. */
const rowsOf = (table: Locator) =>
  table.locator("tbody tr").evaluateAll((rows) =>
    Object.fromEntries(rows.map((row) => [
      row.querySelector("th")?.textContent ?? "",
      Array.from(row.querySelectorAll("td")).map((td) => (td.textContent ?? "").replace(/\s+/g, " ").trim())
    ]))
  )

/** The matrix as `{ row username: { column username: cell text } }`. */
const matrixOf = (table: Locator) =>
  table.evaluate((t) => {
    const columns = Array.from(t.querySelectorAll("thead th")).slice(1).map((th) => th.textContent ?? "")
    const cells: Record<string, Record<string, string>> = {}
    for (const row of Array.from(t.querySelectorAll("tbody tr"))) {
      const name = row.querySelector("th")?.textContent ?? ""
      const tds = Array.from(row.querySelectorAll("td"))
      cells[name] = Object.fromEntries(columns.map((column, i) => [column, (tds[i]?.textContent ?? "").trim()]))
    }
    return cells
  })

/** What the page must show for one question, from the server's figures. */
const expectQuestionShown = async (page: Page, expected: QuestionAgreement) => {
  const part = section(page, expected.question)
  const counts = (await part.locator(".agreement-counts").innerText()).replace(/\s+/g, " ")
  expect(counts).toContain(`Compared ${expected.records_compared}`)
  expect(counts).toContain(`One answer ${expected.records_single}`)
  expect(counts).toContain(`No answer ${expected.records_unanswered}`)
  expect(counts).toContain(`Disagreeing ${expected.records_disagreeing}`)
  const figures = await rowsOf(part.locator("table.agreement-figures"))
  expect(Object.keys(figures)).toEqual(expected.figures.map((f: AgreementFigure) => figureName(f)))
  for (const figure of expected.figures) {
    const [value, records] = figures[figureName(figure)] ?? []
    expect(value?.startsWith(shown(figure.value)), `${expected.question} ${figureName(figure)}: ${value}`).toBe(true)
    if (figure.value === null && figure.note !== null) expect(value).toContain(figure.note)
    expect(records).toBe(String(figure.records))
  }
  const names = new Map(expected.annotators.map((a) => [a.user_id, a.username]))
  if (expected.pairs.length > 0) {
    const matrix = await matrixOf(part.locator("table.agreement-matrix"))
    for (const pair of expected.pairs) {
      const a = names.get(pair.a) ?? ""
      const b = names.get(pair.b) ?? ""
      expect(matrix[a]?.[b]?.startsWith(shown(pair.value)), `${a} × ${b}: ${matrix[a]?.[b]}`).toBe(true)
      expect(matrix[b]?.[a]).toBe(matrix[a]?.[b])
    }
  }
  const annotators = await rowsOf(part.locator("table.agreement-annotators"))
  for (const annotator of expected.annotators) {
    const [answers, others, model] = annotators[annotator.username] ?? []
    expect(answers).toBe(String(annotator.answers))
    expect(others?.startsWith(shown(annotator.with_others))).toBe(true)
    if (expected.suggestions === null && annotator.records_with_suggestion === 0) expect(model).toBe("no suggestions")
    else expect(model?.startsWith(shown(annotator.with_suggestions)), `${annotator.username} with the model: ${model}`).toBe(true)
  }
  if (expected.labels.length > 0) {
    const labels = await rowsOf(part.locator("table.agreement-labels"))
    for (const label of expected.labels) {
      expect(labels[label.label]?.map((cell) => cell.split(" ")[0])).toEqual(label.figures.map((f) => shown(f.value)))
    }
  }
}

describe.skipIf(!hasChromium)("the agreement page, end to end", () => {
  beforeAll(async () => {
    buildUi()
    url = (await runtime.runPromise(TestServer)).url
    seeded = await Effect.runPromise(seedAgreement(url, OWNER.apiKey))
    browser = await launch()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await runtime.dispose()
  })

  it("the owner sees the server's figures per question, the annotator matrix and each annotator against the model", async () => {
    const page = await signedIn(`/dataset/${seeded.datasetId}/agreement`, OWNER.username, OWNER.password)
    ownerPage = page
    await section(page, "sentiment").locator("table.agreement-matrix").waitFor()
    const expected = await report()
    expect(expected.records).toBe(AGREEMENT_TEXTS.length)

    // The seed's shape, as the server counts it: four records compared, one answered once, one never.
    const sentiment = questionOf(expected.questions, "sentiment")
    expect([sentiment.records_compared, sentiment.records_single, sentiment.records_unanswered]).toEqual([4, 1, 1])
    expect(sentiment.annotators.map((a) => a.username).sort()).toEqual(seeded.annotators.map((a) => a.username).sort())
    expect(sentiment.suggestions).not.toBeNull()
    for (const question of ["sentiment", "topics", "entities"]) {
      await expectQuestionShown(page, questionOf(expected.questions, question))
    }
    // Per-label figures for the multi-label and the span question.
    expect(questionOf(expected.questions, "topics").labels.length).toBeGreaterThan(0)
    expect(await section(page, "entities").locator("table.agreement-labels").count()).toBe(
      questionOf(expected.questions, "entities").labels.length > 0 ? 1 : 0
    )
    await checkScreen(page, "agreement")
    await photograph(page, "agreement", { fullPage: true })

    // One question picked: the others are gone, the picked one still shows the server's figures.
    await page.getByLabel("Question", { exact: true }).selectOption("topics")
    await expect.poll(() => page.locator("section[data-question]").count()).toBe(1)
    await expectQuestionShown(page, questionOf(expected.questions, "topics"))
    await page.getByLabel("Question", { exact: true }).selectOption("")
    await expect.poll(() => page.locator("section[data-question]").count()).toBe(3)
  }, 120_000)

  it("a newly submitted answer changes the figures on the open page, without a reload", async () => {
    const page = ownerPage
    if (page === undefined) throw new Error("the first test left no page")
    const [, , cat] = seeded.annotators
    const record = seeded.records[3]
    const text = AGREEMENT_TEXTS[3]
    if (cat === undefined || record === undefined) throw new Error("the seed has no cat or fourth record")
    await page.evaluate(() => Object.assign(window, { beforeAnswer: true }))
    const before = questionOf((await report()).questions, "sentiment")

    const client = await api(cat.apiKey)
    await run(client.responses.create({ path: { id: record }, payload: { status: "submitted", values: answerValues(text, CAT_LATE_ANSWER) } }))
    const after = questionOf((await report()).questions, "sentiment")
    const catBefore = before.annotators.find((a) => a.username === cat.username)?.answers ?? 0
    expect(after.annotators.find((a) => a.username === cat.username)?.answers).toBe(catBefore + 1)

    const catAnswers = () => rowsOf(section(page, "sentiment").locator("table.agreement-annotators")).then((rows) => rows[cat.username]?.[0])
    await expect.poll(catAnswers, { timeout: 30_000, interval: 500 }).toBe(String(catBefore + 1))
    await expectQuestionShown(page, after)
    expect(await page.evaluate(() => "beforeAnswer" in window)).toBe(true)
    await page.context().close()
  }, 120_000)

  it("an annotator gets no agreement page until the owner makes them a reviewer of the workspace", async () => {
    const [ann] = seeded.annotators
    if (ann === undefined) throw new Error("no annotators seeded")
    const path = `/dataset/${seeded.datasetId}/agreement`
    const annotator = await signedIn(path, ann.username, ann.password)
    await expect.poll(() => annotator.getByRole("alert").innerText()).toContain("Only owners, admins and the workspace’s reviewers")
    expect(await annotator.locator("section[data-question]").count()).toBe(0)
    // The server agrees.
    const annApi = await api(ann.apiKey)
    const refused = await Effect.runPromise(Effect.either(annApi.review.agreement({ path: { id: seeded.datasetId }, payload: {} })))
    expect(refused._tag).toBe("Left")

    // The owner ticks "Reviewer" for ann in the workspace's members.
    const owner = await signedIn(`/workspaces?members=${seeded.workspaceId}`, OWNER.username, OWNER.password)
    const panel = owner.getByRole("region", { name: `Members of ${seeded.workspaceName}` })
    const toggle = panel.getByRole("checkbox", { name: `Reviewer rights for ${ann.username}` })
    await expect.poll(() => toggle.isEnabled()).toBe(true)
    expect(await toggle.isChecked()).toBe(false)
    await toggle.check()
    await expect.poll(() => panel.getByRole("status").innerText()).toBe(`${ann.username} now reviews in ${seeded.workspaceName}.`)
    expect(await toggle.isChecked()).toBe(true)
    const ownerApi = await api(OWNER.apiKey)
    const listed = await run(ownerApi.review.reviewers({ path: { id: seeded.workspaceId } }))
    expect(listed.items.map((r) => r.username)).toEqual([ann.username])
    // Only annotators get the switch: the owner's own row has none.
    expect(await panel.getByRole("checkbox", { name: `Reviewer rights for ${OWNER.username}` }).count()).toBe(0)
    await checkScreen(owner, "workspaces members reviewers")

    // ann, now a reviewer, sees the page and the same figures as the owner.
    await annotator.reload()
    await section(annotator, "sentiment").locator("table.agreement-matrix").waitFor()
    await expectQuestionShown(annotator, questionOf((await report()).questions, "sentiment"))
    // Team progress stays for owners and admins: the reviewer's tabs offer agreement only.
    expect(await annotator.getByRole("navigation", { name: "Team pages" }).getByRole("link").count()).toBe(0)
    await checkScreen(annotator, "agreement as reviewer")

    // dan, never made a reviewer, still gets no page.
    const dan = await signedIn(path, seeded.dan.username, seeded.dan.password)
    await expect.poll(() => dan.getByRole("alert").innerText()).toContain("Only owners, admins and the workspace’s reviewers")
    expect(await dan.locator("table").count()).toBe(0)
    await checkScreen(dan, "agreement refused")
    await dan.context().close()

    // Taken back: unticked, and ann is refused again.
    await toggle.uncheck()
    await expect.poll(() => panel.getByRole("status").innerText()).toBe(`${ann.username} no longer reviews in ${seeded.workspaceName}.`)
    expect((await run(ownerApi.review.reviewers({ path: { id: seeded.workspaceId } }))).items).toEqual([])
    await annotator.reload()
    await expect.poll(() => annotator.getByRole("alert").innerText()).toContain("Only owners, admins and the workspace’s reviewers")
    await annotator.context().close()
    await owner.context().close()
  }, 180_000)

  it("a question's disagreement count opens review mode on that question's disagreements", async () => {
    const expected = questionOf((await report()).questions, "topics")
    expect(expected.records_disagreeing).toBeGreaterThan(0)
    const owner = await api(OWNER.apiKey)
    const queue = await run(owner.review.queue({
      path: { id: seeded.datasetId },
      urlParams: { offset: 0, limit: 50 },
      payload: { queue: "disagreement", order: "least_agreement", question: "topics" }
    }))
    expect(queue.total).toBe(expected.records_disagreeing)
    expect(queue.items.every((item) => item.disagreements.includes("topics"))).toBe(true)

    const page = await signedIn(`/dataset/${seeded.datasetId}/agreement`, OWNER.username, OWNER.password)
    await section(page, "topics").getByRole("link", { name: /records disagree on/ }).click()
    await page.waitForURL(/review_question=topics/)
    const toolbar = page.getByRole("group", { name: "Which records to review" })
    await expect.poll(() => toolbar.innerText()).toContain("Question: topics")
    await expect.poll(() => page.getByRole("navigation", { name: "Records to review" }).innerText())
      .toContain(`of ${expected.records_disagreeing}`)
    // "All questions" widens the queue back to every question's disagreements.
    await toolbar.getByRole("button", { name: "All questions" }).click()
    await expect.poll(() => new URL(page.url()).searchParams.get("review_question")).toBeNull()
    await page.context().close()
  }, 120_000)

  it("the export dialog offers CoNLL for the span question, DPO not at all, and downloads the settled spans", async () => {
    const owner = await api(OWNER.apiKey)
    const record = seeded.records[0]
    const text = AGREEMENT_TEXTS[0]
    if (record === undefined) throw new Error("no records seeded")
    const spans = answerValues(text, { sentiment: "positive", topics: [], entities: ["Ada", "Paris"] }).entities.value
    await run(owner.review.settle({ path: { id: record }, payload: { items: [{ question: "entities", value: spans, source: "reviewer" }] } }))

    const page = await signedIn(`/dataset/${seeded.datasetId}/annotation-mode`, OWNER.username, OWNER.password)
    await page.getByRole("button", { name: "Export", exact: true }).click()
    const dialog = page.getByRole("dialog", { name: "Export the dataset" })
    await dialog.waitFor()
    const dpo = dialog.getByRole("radio", { name: /DPO pairs/ })
    expect(await dpo.isDisabled()).toBe(true)
    expect(await dialog.innerText()).toContain("Not available: needs a ranking question")
    await dialog.getByRole("radio", { name: /CoNLL/ }).check()
    const question = dialog.getByLabel("Question")
    expect(await question.locator("option").allInnerTexts()).toEqual(["Entities"])
    await checkScreen(page, "export dialog training formats")

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      dialog.getByRole("button", { name: "Export and download" }).click()
    ])
    const conll = readFileSync(await download.path(), "utf8")
    expect(conll).toMatch(/^Ada\s.*\bB-PER$/m)
    expect(conll).toMatch(/^Paris\s.*\bB-LOC$/m)
    // Only the settled record is written; the dialog says why the others were left out.
    expect(conll).not.toContain("Grace")
    await expect.poll(() => dialog.getByRole("status").innerText()).toMatch(/^Exported 1 records\./)
    await page.context().close()
  }, 120_000)
})
