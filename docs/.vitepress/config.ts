import { defineConfig } from "vitepress"

// Dead links fail the build (VitePress's default): a renamed page must take its links with it.
export default defineConfig({
  title: "Gloss",
  description: "An Argilla-compatible annotation server",
  cleanUrls: true,
  lastUpdated: false,
  themeConfig: {
    nav: [
      { text: "Tutorial", link: "/tutorial/first-dataset" },
      { text: "How-to", link: "/how-to/docker-compose" },
      { text: "Reference", link: "/reference/configuration" },
      { text: "Explanation", link: "/explanation/architecture" },
      { text: "Benchmarks", link: "/benchmarks" }
    ],
    sidebar: [
      {
        text: "Tutorial",
        items: [{ text: "Your first dataset", link: "/tutorial/first-dataset" }]
      },
      {
        text: "How-to guides",
        items: [
          { text: "Run with docker compose", link: "/how-to/docker-compose" },
          { text: "Scale out", link: "/how-to/scale" },
          { text: "Run a team from the browser", link: "/how-to/team" },
          { text: "Assign work to annotators", link: "/how-to/assign-work" },
          { text: "Review and settle answers", link: "/how-to/review-and-settle" },
          { text: "Deploy to a Hugging Face Space", link: "/how-to/huggingface-space" },
          { text: "Sign in with Hugging Face", link: "/how-to/huggingface-sign-in" },
          { text: "Move datasets", link: "/how-to/move-datasets" },
          { text: "Export settled data for training", link: "/how-to/export-for-training" },
          { text: "Move from Argilla", link: "/how-to/move-from-argilla" },
          { text: "Use Argilla's SDK and UI", link: "/how-to/argilla-sdk-and-ui" },
          { text: "Webhooks", link: "/how-to/webhooks" },
          { text: "Operate Gloss", link: "/how-to/operate" }
        ]
      },
      {
        text: "Reference",
        items: [
          { text: "Configuration", link: "/reference/configuration" },
          { text: "Command line", link: "/reference/cli" },
          { text: "REST API", link: "/reference/rest-api" },
          { text: "TypeScript client", link: "/reference/client" },
          { text: "Compatibility with Argilla", link: "/reference/compatibility" }
        ]
      },
      {
        text: "Explanation",
        items: [
          { text: "Architecture", link: "/explanation/architecture" },
          { text: "Search at scale", link: "/explanation/search-at-scale" },
          { text: "Agreement between annotators", link: "/explanation/agreement" },
          { text: "How queues are made", link: "/explanation/queues" },
          { text: "Security", link: "/explanation/security" }
        ]
      },
      {
        text: "Benchmarks",
        items: [{ text: "Benchmarks", link: "/benchmarks" }]
      }
    ],
    search: { provider: "local" },
    outline: { level: [2, 3] }
  }
})
