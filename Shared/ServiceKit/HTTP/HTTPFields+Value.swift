public import HTTPTypes

extension HTTPFields {
    /// The value of the `name` field, as `self[name]` gives it: every such field's value joined (with
    /// "; " for Cookie, ", " for the rest), nil without one. The modules and the gateway read headers
    /// through this, not the subscript.
    ///
    /// Why: the subscript joins even a single value through a lazy sequence whose generic code runs
    /// unspecialized in the standard library, looking up type metadata at run time. Reading one answer's
    /// Content-Length that way was 3.4 % of the gateway's CPU at one connection (perf); in a release
    /// build it takes 563 ns where finding the one field takes 13.
    public func value(of name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            // Several fields of one name are rare: the subscript joins them as it always has.
            guard found == nil else { return self[name] }
            found = field.value
        }
        return found
    }
}
