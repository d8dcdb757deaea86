/** A Space is served at `https://<org>-<repo>.hf.space/`: both parts squeezed into one DNS label each. */
export const sanitize = (name: string): string =>
  name.replace(/[^a-zA-Z0-9-]/g, "-").toLowerCase().replace(/^-+|-+$/g, "")

export const spaceUrl = (orgName: string, repoName: string): string =>
  `https://${sanitize(orgName)}-${sanitize(repoName)}.hf.space/`
