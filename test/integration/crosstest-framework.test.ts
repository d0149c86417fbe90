// The plugin-framework half of the oracle corpus (test/crosstest): shapefw driven by our plugin against OpenTofu's recorded answers.
import { crosstestSuite } from "../crosstest/suite.js";

crosstestSuite("framework", 2500);
