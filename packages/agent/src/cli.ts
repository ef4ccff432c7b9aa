#!/usr/bin/env node
import { main } from "./program";

await main(process.argv);
