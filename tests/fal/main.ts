import { parseArgs } from 'node:util';
import { exitOnSignals } from '../helpers/exit-on-signals.ts';
import { startFalStandIn } from './queue-stand-in.ts';

/**
 * Runs the fal queue stand-in on its own, so a person can point Kinora at it:
 *   node --import tsx tests/fal/main.ts --port 9797 [--steps 2]
 *   KINORA_RENDER_PROVIDER=fal FAL_KEY=local KINORA_FAL_QUEUE_URL=http://127.0.0.1:9797 npm start
 * Prints one line per submission; Ctrl-C stops it.
 */

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '9797' },
    steps: { type: 'string', default: '2' },
  },
});

const port = Number(values.port);
const steps = Number(values.steps);
if (!Number.isInteger(port) || port < 0 || port > 65_535 || !Number.isInteger(steps) || steps < 0) {
  console.error('usage: node --import tsx tests/fal/main.ts [--port 9797] [--steps 2]');
  process.exit(2);
}

const standIn = await startFalStandIn({ port, stepsToComplete: steps, log: (line) => console.log(line) });
console.log(`fal queue stand-in on ${standIn.url}`);
console.log(`run Kinora with KINORA_RENDER_PROVIDER=fal FAL_KEY=local KINORA_FAL_QUEUE_URL=${standIn.url}`);
console.log('markers in a prompt: [fal-nsfw], [fal-fail] (422), [fal-error] (500). Ctrl-C stops.');

exitOnSignals(() => standIn.stop());
