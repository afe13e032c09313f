/**
 * How `npm run build` makes `custom-elements.json`, the Custom Elements Manifest of `<booking-calendar>`
 * that IDEs, Storybook and framework wrappers read: from the element's class comment (`@attr`, `@event`,
 * `@slot`, `@csspart`, `@cssproperty`) and its Lit properties. test/manifest.spec.ts holds it to the code.
 */
const SOURCE = "src/booking-calendar.component.ts";
/** The module of the package that carries the element: importing it defines the tag. */
const PUBLISHED = "dist/npm/index.js";
const TAG = "booking-calendar";

/**
 * A property declared `state: true` is internal reactive state: Lit makes no attribute for it, which
 * the analyzer's Lit support reads only from `attribute: false`. Such properties are left out.
 */
function stateIsInternal() {
  return {
    name: "booking-calendar-state-is-internal",
    analyzePhase({ ts, node, moduleDoc }) {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      const properties = node.members.find((m) => ts.isPropertyDeclaration(m) && m.name.getText() === "properties");
      if (!properties?.initializer || !ts.isObjectLiteralExpression(properties.initializer)) return;
      const state = new Set(
        properties.initializer.properties
          .filter((p) => ts.isPropertyAssignment(p) && ts.isObjectLiteralExpression(p.initializer))
          .filter((p) =>
            p.initializer.properties.some(
              (o) => ts.isPropertyAssignment(o) && o.name.getText() === "state" && o.initializer.kind === ts.SyntaxKind.TrueKeyword,
            ),
          )
          .map((p) => p.name.getText()),
      );
      const declaration = moduleDoc.declarations?.find((d) => d.name === node.name.getText());
      if (!declaration || state.size === 0) return;
      declaration.attributes = declaration.attributes?.filter((a) => !state.has(a.fieldName ?? a.name));
      declaration.members = declaration.members?.filter((m) => !state.has(m.name));
    },
  };
}

/**
 * The package ships the built module, not `src/`: the element is described where a site imports it
 * from, with the tag that module defines. Members behind `#` are not part of any API and stay out.
 */
function publishedModule() {
  return {
    name: "booking-calendar-published-module",
    packageLinkPhase({ customElementsManifest }) {
      for (const module of customElementsManifest.modules) {
        if (module.path !== SOURCE) continue;
        module.path = PUBLISHED;
        for (const declaration of module.declarations ?? [])
          if (declaration.members) declaration.members = declaration.members.filter((m) => !m.name.startsWith("#"));
        for (const entry of module.exports ?? []) if (entry.declaration?.module === SOURCE) entry.declaration.module = PUBLISHED;
        module.exports = [
          ...(module.exports ?? []),
          { kind: "custom-element-definition", name: TAG, declaration: { name: "BookingCalendar", module: PUBLISHED } },
        ];
      }
    },
  };
}

export default {
  globs: [SOURCE],
  outdir: ".",
  litelement: true,
  // package.json names the manifest itself ("customElements"); the analyzer would rewrite the whole file.
  packagejson: false,
  plugins: [stateIsInternal(), publishedModule()],
};
