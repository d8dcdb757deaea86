import { Schema } from "effect"
import { UserId } from "./Ids.js"
import { NonBlank, SingleLine } from "./Common.js"
import { Timestamp } from "./Timestamp.js"

export const Role = Schema.Literal("owner", "admin", "annotator")
export type Role = typeof Role.Type

/**
 * A user as the API shows it (reference A.1). `api_key` is there only for the user themselves (`GET /me`) and, once,
 * in the answer that creates the user: the server keeps only a digest and a sealed copy of it (see
 * services/users/ApiKeys.ts). Argilla shows it to owners in every user answer and to every admin who lists a
 * workspace's members, which hands them the owner's key.
 */
export const User = Schema.Struct({
  id: UserId,
  first_name: Schema.String,
  last_name: Schema.NullOr(Schema.String),
  username: Schema.String,
  role: Role,
  api_key: Schema.optional(Schema.String),
  inserted_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "User" })
export type User = typeof User.Type

const Username = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200), SingleLine)
const PersonName = NonBlank(200).pipe(SingleLine)
export const Password = Schema.String.pipe(Schema.minLength(8), Schema.maxLength(100))

export const UserCreate = Schema.Struct({
  // The SDK sends `"id": null` (with null timestamps, which are ignored) when it lets the server choose.
  id: Schema.optional(Schema.NullOr(UserId)),
  first_name: PersonName,
  last_name: Schema.optional(Schema.NullOr(PersonName)),
  username: Username,
  role: Schema.optional(Role),
  password: Password
}).annotations({ identifier: "UserCreate" })
export type UserCreate = typeof UserCreate.Type

export const UserUpdate = Schema.Struct({
  first_name: Schema.optional(PersonName),
  last_name: Schema.optional(Schema.NullOr(PersonName)),
  username: Schema.optional(Username),
  role: Schema.optional(Role),
  password: Schema.optional(Password)
}).annotations({ identifier: "UserUpdate" })
export type UserUpdate = typeof UserUpdate.Type
