// `npm run bench`: every benchmark suite, one after another (they share two cores).
import { runAuthBench } from './auth.bench';
import { runCadBench } from './cad.bench';
import { runCaptchaBench } from './captcha.bench';
import { runLighthouseBench } from './lighthouse.bench';
import { runSiteBench } from './site.bench';
import { runUploadBench } from './upload.bench';
import { runViewerBench } from './viewer.bench';

const suites: Array<[string, () => Promise<boolean>]> = [
  ['site (issue 2)', runSiteBench],
  ['sign-in (issue 3)', runAuthBench],
  ['captcha (issue 3)', runCaptchaBench],
  ['lighthouse (issue 5)', runLighthouseBench],
  ['cad engine (issue 6)', runCadBench],
  ['upload and conversion (issue 7)', runUploadBench],
  ['online viewer (issue 9)', runViewerBench],
];
// `npm run bench -- sign-in` runs only the suites whose name contains the word given.
const filter = process.argv[2];
let isAllMet = true;
for (const [name, suite] of suites.filter(([name]) => filter === undefined || name.includes(filter))) {
  console.log(`\n=== ${name} ===`);
  isAllMet = (await suite()) && isAllMet;
}
console.log(`\nAll targets ${isAllMet ? 'met' : 'NOT met'}.`);
