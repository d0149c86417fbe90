// Prints the release location scripts/package.sh bakes into the executable: TF_BRIDGE_PLUGIN_DOWNLOAD_URL when set and not
// empty, else package.json's pluginDownloadURL, else nothing; a value the engine could not download from stops packaging.
import { checkedDownloadURL, packagedDownloadURL, PLUGIN_DOWNLOAD_URL_ENV } from "../src/release.js";

try {
  process.stdout.write(`${checkedDownloadURL(process.env[PLUGIN_DOWNLOAD_URL_ENV], PLUGIN_DOWNLOAD_URL_ENV) ?? packagedDownloadURL() ?? ""}\n`);
} catch (e) {
  process.stderr.write(`package: ${(e as Error).message}\n`);
  process.exit(1);
}
