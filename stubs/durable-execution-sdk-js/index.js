// sst/aws/workflow (Lambda durable functions) is the only importer; this repository has no
// workflows. Importing it here is a mistake to be told about, not a silent no-op.
throw new Error(
  "@aws/durable-execution-sdk-js is stubbed out in this repository (see package.json overrides): sst/aws/workflow is not used here",
);
