// Starts the Microsoft fake on its own for trying the browser flow by hand (docs/extmail.md):
//   npx tsx test/fakes/microsoft-server.ts [port] [callback URL]
// It prints the environment that points `gable serve` at it. Every sign-in signs in as the fake's one account.
import { FakeMicrosoft } from './microsoft.js';

const port = Number(process.argv[2] ?? '4010');
const callback = process.argv[3] ?? 'http://127.0.0.1:3000/extmail/callback';
const fake = new FakeMicrosoft({ redirectUris: [callback] });
await fake.start(port);
fake.seedDemoMailbox(25);
console.log(`Microsoft fake on ${fake.url} (callback ${callback}). Start the server with:`);
for (const [key, value] of Object.entries(fake.env())) console.log(`  export ${key}=${value}`);
