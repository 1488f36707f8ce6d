// `npm run bench`: every benchmark suite, one after another (they share two cores).
import { runAuthBench } from './auth.bench';
import { runCadBench } from './cad.bench';
import { runCaptchaBench } from './captcha.bench';
import { runLighthouseBench } from './lighthouse.bench';
import { runSiteBench } from './site.bench';
import { runUploadBench } from './upload.bench';
import { runViewerBench } from './viewer.bench';

const suites: Array<[string, () => Promise<boolean>]> = [
  ['site', runSiteBench],
  ['sign-in', runAuthBench],
  ['captcha', runCaptchaBench],
  ['lighthouse', runLighthouseBench],
  ['cad engine', runCadBench],
  ['upload and conversion', runUploadBench],
  ['online viewer', runViewerBench],
];
// `npm run bench -- sign-in` runs only the suites whose name contains the word given.
const filter = process.argv[2];
let isAllMet = true;
for (const [name, suite] of suites.filter(([name]) => filter === undefined || name.includes(filter))) {
  console.log(`\n=== ${name} ===`);
  isAllMet = (await suite()) && isAllMet;
}
console.log(`\nAll targets ${isAllMet ? 'met' : 'NOT met'}.`);
