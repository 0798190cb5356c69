#!/usr/bin/env node
// crescent-js: the stdio adapter (spec/protocol.md), and perft (spec/perft.md).
//
//   node bin/crescent-js.js                      serve the protocol on stdin/stdout
//   node bin/crescent-js.js perft --profile P (--position TEXT | --code CODE) --depth N [--divide]

import '../src/tiering.js';
import { serve } from '../src/server.js';
import { perftMain } from '../src/perft.js';

const [command, ...rest] = process.argv.slice(2);
if (command === undefined || command === 'serve') {
  await serve();
  // Leave once stdout has flushed, even if the runner keeps stdin open after `stop`.
  process.stdout.write('', () => process.exit(0));
} else if (command === 'perft') {
  process.exit(perftMain(rest));
} else {
  process.stderr.write('usage: crescent-js [serve] | perft --profile P (--position TEXT | --code CODE) --depth N [--divide]\n');
  process.exit(2);
}
