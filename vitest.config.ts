import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts'],
          // The public types' tests (tests/types/*.test-d.ts): checked by tsc, reported as tests beside the others.
          typecheck: { enabled: true, include: ['tests/types/**/*.test-d.ts'], tsconfig: 'tests/types/tsconfig.json' },
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
