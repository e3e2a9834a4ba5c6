#!/usr/bin/env node
// The `patchbay` bin (`npx patchbay …` in the checkout, or any install of @patchbay/cli): runs the
// TypeScript entry point through tsx (the workspace root's), in this process, in the directory it was called in.
require('tsx/cjs');
require('../src/main.ts');
