// The example's own vitest settings (so that vitest does not pick up the commplan repository's config above it).
export default { test: { include: ["test/**/*.test.ts"] } };
