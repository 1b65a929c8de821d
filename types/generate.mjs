// Generate the TypeScript types of every JSON Schema the package ships:
// src/mexican_train/schema/NAME.schema.json -> src/mexican_train/schema/NAME.d.ts
//
//   npm ci && npm run generate    write the .d.ts files (after changing a schema)
//   node generate.mjs --check     fail if a committed .d.ts differs from a fresh one
//
// Versions are pinned in package-lock.json, so the output is the same everywhere.
import { readFile, readdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "json-schema-to-typescript";

const here = dirname(fileURLToPath(import.meta.url));
const schemaDir = join(here, "..", "src", "mexican_train", "schema");
const check = process.argv.includes("--check");

const banner = `/* Generated from the JSON Schema beside this file by types/generate.mjs
 * (json-schema-to-typescript): do not edit by hand; run 'npm run generate' in types/. */`;

const names = (await readdir(schemaDir)).filter((n) => n.endsWith(".schema.json")).sort();
if (names.length === 0) {
  console.error(`no *.schema.json in ${schemaDir}`);
  process.exit(1);
}
// The root type's name: mexican-train-2.schema.json -> MexicanTrainDocument,
// mexican-train-web-1.schema.json -> MexicanTrainWebDocument.
const rootName = (name) =>
  name
    .replace(/-\d+\.schema\.json$/, "")
    .split("-")
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join("") + "Document";
let stale = 0;
for (const name of names) {
  // Without its title and $id (which name the version), the root type keeps one name.
  const { title, $id, ...schema } = JSON.parse(await readFile(join(schemaDir, name), "utf8"));
  const output = join(schemaDir, name.replace(/\.schema\.json$/, ".d.ts"));
  const compiled = await compile(schema, rootName(name), {
    bannerComment: banner,
    cwd: schemaDir, // a $ref to the schema beside it; its types are imported by a tsType
    additionalProperties: false,
    strictIndexSignatures: true,
    unreachableDefinitions: true, // every $defs entry becomes a named type
    format: true,
    style: { printWidth: 100 },
  });
  // The generator names the schema by an undefined $id in its comments; say what is meant.
  const text = compiled.replace(
    /This interface was referenced by `undefined`'s JSON-Schema\n \* via the `definition` "(\w+)"\./g,
    (_, def) => `The schema's definition "${def}" (#/$defs/${def}), ${title}.`,
  );
  if (check) {
    let current = "";
    try {
      current = await readFile(output, "utf8");
    } catch {
      // missing: stale
    }
    if (current !== text) {
      console.error(`${output} is out of date: run 'npm ci && npm run generate' in types/`);
      stale += 1;
    } else {
      console.log(`${output} is up to date`);
    }
  } else {
    await writeFile(output, text);
    console.log(`wrote ${output}`);
  }
}
process.exit(stale ? 1 : 0);
