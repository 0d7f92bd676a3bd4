/**
 * Browser code for the docs page, loaded after Swagger UI's bundle and before its initializer
 * runs (on window load): it wraps SwaggerUIBundle so the page starts with one more plugin,
 * which hides "Try it out" on every operation marked `x-try-it-out: false` in the OpenAPI
 * document. Swagger UI has only a global switch (supportedSubmitMethods); its `parameters`
 * component takes `allowTryItOut`, which this sets per operation.
 */
export const TRY_IT_OUT_SCRIPT = `(function () {
  var Bundle = window.SwaggerUIBundle;
  if (!Bundle) return;
  var perOperation = function (system) {
    return {
      wrapComponents: {
        parameters: function (Original) {
          return function (props) {
            var where = props.pathMethod || [];
            var operation = system.specSelectors.specJson().getIn(['paths', where[0], where[1]]);
            var allowed = !operation || operation.get('x-try-it-out') !== false;
            return system.React.createElement(Original, allowed ? props : Object.assign({}, props, { allowTryItOut: false }));
          };
        },
      },
    };
  };
  var wrapped = function (config) {
    return Bundle(Object.assign({}, config, { plugins: (config.plugins || []).concat([perOperation]) }));
  };
  Object.assign(wrapped, Bundle);
  window.SwaggerUIBundle = wrapped;
})();
`;
