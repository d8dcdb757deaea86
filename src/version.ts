import packageJson from "../package.json" with { type: "json" }

/** The server's version, as `GET /api/v1/version` reports it. */
export const VERSION: string = packageJson.version
