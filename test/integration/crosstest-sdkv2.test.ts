// The SDKv2 half of the oracle corpus (test/crosstest): shapesdk driven by our plugin against OpenTofu's recorded answers.
import { crosstestSuite } from "../crosstest/suite.js";

crosstestSuite("sdkv2", 1500);
