/**
 * Agreement between annotators, free of I/O: `questionAgreement` over a question's records for the agreement report,
 * `recordAgreement` for one record in the review queue. See README.md for the measures and their conventions.
 */
export type { AgreementUnit } from "./collect.js"
export { questionAgreement } from "./question.js"
export { recordAgreement } from "./record.js"
