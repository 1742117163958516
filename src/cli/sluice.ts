#!/usr/bin/env node
// The `sluice` command as built into dist/ (package.json "bin", `npm start`, the image's entry point). Stack traces
// then name TypeScript files and lines through the build's source maps: Node reads a module's map as it loads it, so
// they are turned on here, before the rest of the command is imported.
process.setSourceMapsEnabled(true);
await import('./main.js');
