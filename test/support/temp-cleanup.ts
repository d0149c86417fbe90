// A setup file of every test tier (vitest.config.ts): a test file's temporary directories go when it ends, since
// vitest stops its worker processes without letting exit handlers run.
import { afterAll } from "vitest";
import { removeTempDirs } from "./temp.js";

afterAll(removeTempDirs);
