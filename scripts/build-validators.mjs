#!/usr/bin/env node
// Placeholder until the config foundation generates Ajv standalone validators at build time.
