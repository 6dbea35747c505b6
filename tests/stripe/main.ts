import { parseArgs } from 'node:util';
import { exitOnSignals } from '../helpers/exit-on-signals.ts';
import { startStripeStandIn } from './stand-in.ts';

/**
 * Runs the Stripe stand-in on its own, so a person can point Kinora at it and buy credits through
 * the UI (Credits → buy a pack → the stand-in's checkout page → back to Kinora):
 *   node --import tsx tests/stripe/main.ts --port 12111 --webhook http://localhost:8787/api/stripe/webhook
 *   KINORA_PAYMENT_PROVIDER=stripe STRIPE_SECRET_KEY=sk_test_local STRIPE_WEBHOOK_SECRET=whsec_local_stand_in \
 *     KINORA_STRIPE_API_URL=http://127.0.0.1:12111 npm start
 * Prints one line per API call and event; Ctrl-C stops it.
 */

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '12111' },
    webhook: { type: 'string', default: 'http://localhost:8787/api/stripe/webhook' },
    secret: { type: 'string', default: 'whsec_local_stand_in' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error('usage: node --import tsx tests/stripe/main.ts [--port 12111] [--webhook URL] [--secret whsec_…]');
  process.exit(2);
}

const standIn = await startStripeStandIn({ port, webhookUrl: values.webhook, webhookSecret: values.secret, log: (line) => console.log(line) });
console.log(`Stripe stand-in on ${standIn.url}; events go to ${values.webhook}`);
console.log(
  `run Kinora with KINORA_PAYMENT_PROVIDER=stripe STRIPE_SECRET_KEY=sk_test_local STRIPE_WEBHOOK_SECRET=${values.secret} KINORA_STRIPE_API_URL=${standIn.url}`,
);
console.log('test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined. Ctrl-C stops.');

let reported = 0;
const report = setInterval(() => {
  for (const request of standIn.requests.slice(reported)) console.log(`${request.method} ${request.path} → ${request.status}`);
  reported = standIn.requests.length;
}, 250);

exitOnSignals(() => {
  clearInterval(report);
  return standIn.stop();
});
