//! A field that takes one value or a list of values to try each ("sweep").

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, Deserialize, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor};

/// One value, or several to try in turn: `tt_mb = 16` or `tt_mb = [0, 1, 16]`.
/// Several sweeps in one experiment combine as a cartesian product.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep<T>(pub Vec<T>);

impl<T> Sweep<T> {
    /// The values, in the order written.
    #[must_use]
    pub fn values(&self) -> &[T] {
        &self.0
    }

    /// True when the field lists more than one value.
    #[must_use]
    pub fn is_sweep(&self) -> bool {
        self.0.len() > 1
    }
}

impl<'de, T: Deserialize<'de> + fmt::Display> Deserialize<'de> for Sweep<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SweepVisitor(PhantomData))
    }
}

struct SweepVisitor<T>(PhantomData<T>);

macro_rules! forward_scalar {
    ($($method:ident: $ty:ty),*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
            T::deserialize(v.into_deserializer()).map(|one| Sweep(vec![one]))
        }
    )*};
}

impl<'de, T: Deserialize<'de> + fmt::Display> Visitor<'de> for SweepVisitor<T> {
    type Value = Sweep<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value or a non-empty list of values to try each")
    }

    forward_scalar!(visit_bool: bool, visit_i64: i64, visit_u64: u64, visit_f64: f64, visit_str: &str);

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        T::deserialize(v.into_deserializer()).map(|one| Sweep(vec![one]))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let values = Vec::<T>::deserialize(SeqAccessDeserializer::new(seq))?;
        if values.is_empty() {
            return Err(de::Error::custom(
                "an empty list sweeps nothing: give at least one value",
            ));
        }
        if let Some(twice) = first_repeated(&values) {
            return Err(de::Error::custom(format!(
                "`{twice}` is listed twice: each value of a sweep makes one variant, named by \
                 the value, and two of one name would be averaged together"
            )));
        }
        Ok(Sweep(values))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map)).map(|one| Sweep(vec![one]))
    }
}

/// The first value written the same way as an earlier one (variants are named by the
/// written value, so `1` and `1.0` of a number sweep are one name too).
fn first_repeated<T: fmt::Display>(values: &[T]) -> Option<String> {
    let mut seen = std::collections::HashSet::new();
    values
        .iter()
        .map(ToString::to_string)
        .find(|v| !seen.insert(v.clone()))
}

/// The most variants one product of sweeps may make. [`Variants::across`] stops multiplying
/// one past it, so that a file with many long lists cannot exhaust memory before the
/// caller sees `items.len() > MAX_VARIANTS` and refuses it.
pub const MAX_VARIANTS: usize = 10_000;

/// The cartesian product of sweeps, built one field at a time: each variant carries the
/// `key=value` assignments of the swept fields that made it, for labels and CSV columns.
#[derive(Clone, Debug)]
pub struct Variants<S> {
    /// (the variant, its swept assignments)
    pub items: Vec<(S, Vec<String>)>,
}

impl<S: Clone> Variants<S> {
    /// A single variant with nothing swept yet.
    pub fn new(base: S) -> Self {
        Self {
            items: vec![(base, Vec::new())],
        }
    }

    /// Multiplies the variants by the values of one field (absent: the field keeps its
    /// default). Only fields with several values are named in the assignments.
    #[must_use]
    pub fn across<T: Clone + fmt::Display>(
        self,
        name: &str,
        sweep: Option<&Sweep<T>>,
        set: impl Fn(&mut S, T),
    ) -> Self {
        let Some(sweep) = sweep else { return self };
        let wanted = self.items.len().saturating_mul(sweep.0.len());
        let mut items = Vec::with_capacity(wanted.min(MAX_VARIANTS + 1));
        for (base, assigned) in self.items {
            for value in &sweep.0 {
                if items.len() > MAX_VARIANTS {
                    // Too many already: the caller refuses the plan (see MAX_VARIANTS).
                    return Self { items };
                }
                let mut variant = base.clone();
                set(&mut variant, value.clone());
                let mut names = assigned.clone();
                if sweep.is_sweep() {
                    names.push(format!("{name}={value}"));
                }
                items.push((variant, names));
            }
        }
        Self { items }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    struct Doc {
        a: Sweep<u32>,
        b: Option<Sweep<String>>,
    }

    #[test]
    fn one_value_or_a_list() {
        let doc: Doc = toml::from_str("a = 3\nb = ['x', 'y']").unwrap();
        assert_eq!(doc.a.0, vec![3]);
        assert_eq!(doc.b.unwrap().0, vec!["x", "y"]);
        let doc: Doc = toml::from_str("a = [1, 2]").unwrap();
        assert!(doc.a.is_sweep());
    }

    #[test]
    fn bad_values_keep_their_line() {
        let err = toml::from_str::<Doc>("b = 'x'\na = -3").unwrap_err();
        let span = err.span().unwrap();
        assert_eq!(&"b = 'x'\na = -3"[span], "-3");
        assert!(err.message().contains("-3"), "{}", err.message());
        assert!(toml::from_str::<Doc>("a = []").is_err());
        assert!(toml::from_str::<Doc>("a = [1, 'x']").is_err());
        let err = toml::from_str::<Doc>("a = 1\nb = ['x', 'y', 'x']").unwrap_err();
        assert!(
            err.message().contains("`x` is listed twice"),
            "{}",
            err.message()
        );
        assert_eq!(err.span().map(|s| s.start), Some(10));
    }

    #[test]
    fn variants_form_the_cartesian_product() {
        let v = Variants::new((0u32, 0u32))
            .across("x", Some(&Sweep(vec![1, 2])), |s, x| s.0 = x)
            .across("y", Some(&Sweep(vec![5])), |s, y| s.1 = y)
            .across("z", None::<&Sweep<u32>>, |_, _| {});
        let got: Vec<_> = v.items.iter().map(|(s, n)| (*s, n.join(" "))).collect();
        assert_eq!(got, vec![((1, 5), "x=1".into()), ((2, 5), "x=2".into())]);
    }
}
