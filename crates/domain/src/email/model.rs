//! The learned model: a multinomial logistic regression over hashed [`Features`], trained
//! with plain SGD and L2 (deterministic: fixed shuffle seed) by `make classifier-model` and
//! shipped as weights ([`super::model_file`]).

use super::Category;
use super::features::{DIM, Features};

/// Number of classes ([`Category::ALL`] order).
pub const K: usize = 5;

/// Training settings.
#[derive(Debug, Clone, Copy)]
pub struct Training {
    /// Passes over the examples.
    pub epochs: usize,
    /// Initial learning rate.
    pub learning_rate: f32,
    /// L2 penalty per update.
    pub l2: f32,
}

impl Default for Training {
    fn default() -> Self {
        Self {
            epochs: 12,
            learning_rate: 0.5,
            l2: 1e-5,
        }
    }
}

/// Settings of [`Linear::learn`], the online update from corrections.
#[derive(Debug, Clone, Copy)]
pub struct Learning {
    /// Learning rate of the sender's prior.
    pub prior_rate: f32,
    /// Learning rate of the shared weights (the examples' weight against the trained model).
    pub shared_rate: f32,
    /// At most this many passes over the corrected examples.
    pub passes: usize,
    /// Stop once every example gets its category with this probability.
    pub until: f32,
}

impl Default for Learning {
    fn default() -> Self {
        Self {
            prior_rate: 1.0,
            shared_rate: 0.05,
            passes: 30,
            until: 0.97,
        }
    }
}

/// The weights: `DIM × 5`, row-major by feature.
#[derive(Debug, Clone, PartialEq)]
pub struct Linear {
    weights: Vec<f32>,
}

/// The class index of a category.
pub fn class(c: Category) -> usize {
    Category::ALL.iter().position(|&x| x == c).unwrap_or(0)
}

impl Linear {
    /// Trains on `(features, category)` pairs.
    pub fn train(examples: &[(&Features, Category)], settings: Training) -> Self {
        let mut weights = vec![0f32; DIM * K];
        let mut order: Vec<usize> = (0..examples.len()).collect();
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let total = (settings.epochs * examples.len()).max(1) as f32;
        let mut step = 0f32;
        for _ in 0..settings.epochs {
            // Fisher–Yates with xorshift: the same order on every machine.
            for i in (1..order.len()).rev() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                order.swap(i, (seed % (i as u64 + 1)) as usize);
            }
            for &i in &order {
                let (x, category) = examples[i];
                let lr = settings.learning_rate * (1.0 - 0.9 * step / total);
                step += 1.0;
                let p = softmax(scores(&weights, x));
                let target = class(category);
                for &(idx, value) in &x.values {
                    let row = idx as usize * K;
                    for k in 0..K {
                        let gradient = p[k] - if k == target { 1.0 } else { 0.0 };
                        let w = &mut weights[row + k];
                        *w -= lr * (gradient * value + settings.l2 * *w);
                    }
                }
            }
        }
        Self { weights }
    }

    /// An online update towards corrected examples of one sender (what ops staff moved on
    /// the dashboard): weighted SGD passes over them alone until the model, with the sender's
    /// `prior` added to its scores, gives each its corrected category with at least
    /// `Learning::until` probability, or `Learning::passes` run out. The sender's prior learns
    /// fast (it touches only that sender's mail); the shared weights of the examples' words
    /// and header evidence slowly (so similar mail of other senders leans the same way without
    /// the rest of the mailbox moving). The class prior (the bias feature) is left alone.
    pub fn learn(
        &mut self,
        prior: &mut [f32; K],
        examples: &[(&Features, Category)],
        settings: Learning,
    ) {
        let bias = super::features::index("bias");
        for _ in 0..settings.passes {
            let mut learnt = true;
            for &(x, category) in examples {
                let target = class(category);
                let p = self.probabilities_with(x, prior);
                if p[target] >= settings.until {
                    continue;
                }
                learnt = false;
                let gradient: [f32; K] =
                    std::array::from_fn(|k| p[k] - if k == target { 1.0 } else { 0.0 });
                for (p, g) in prior.iter_mut().zip(gradient) {
                    *p -= settings.prior_rate * g;
                }
                for &(idx, value) in x.values.iter().filter(|(idx, _)| *idx != bias) {
                    let row = &mut self.weights[idx as usize * K..idx as usize * K + K];
                    for (w, g) in row.iter_mut().zip(gradient) {
                        *w -= settings.shared_rate * g * value;
                    }
                }
            }
            if learnt {
                break;
            }
        }
    }

    /// Class probabilities with a sender's prior added to the scores.
    pub fn probabilities_with(&self, x: &Features, prior: &[f32; K]) -> [f32; K] {
        let mut s = scores(&self.weights, x);
        for (s, p) in s.iter_mut().zip(prior) {
            *s += p;
        }
        softmax(s)
    }

    /// The weights, `DIM × 5` row-major by feature.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// A model from `DIM × 5` weights; `None` for any other length.
    pub fn from_weights(weights: Vec<f32>) -> Option<Self> {
        (weights.len() == DIM * K).then_some(Self { weights })
    }

    /// Class probabilities in [`Category::ALL`] order.
    pub fn probabilities(&self, x: &Features) -> [f32; K] {
        softmax(scores(&self.weights, x))
    }

    /// How much each feature of `x` pushes towards `category` rather than the average class:
    /// `(position in x, contribution)`, largest first.
    pub fn contributions(&self, x: &Features, category: Category) -> Vec<(usize, f32)> {
        let k = class(category);
        let mut out: Vec<(usize, f32)> = x
            .values
            .iter()
            .enumerate()
            .map(|(pos, &(idx, value))| {
                let row = &self.weights[idx as usize * K..idx as usize * K + K];
                let mean = row.iter().sum::<f32>() / K as f32;
                (pos, (row[k] - mean) * value)
            })
            .collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        out
    }
}

fn scores(weights: &[f32], x: &Features) -> [f32; K] {
    let mut s = [0f32; K];
    for &(idx, value) in &x.values {
        let row = &weights[idx as usize * K..idx as usize * K + K];
        for k in 0..K {
            s[k] += row[k] * value;
        }
    }
    s
}

fn softmax(s: [f32; K]) -> [f32; K] {
    let max = s.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut e = s.map(|v| (v - max).exp());
    let sum: f32 = e.iter().sum();
    for v in &mut e {
        *v /= sum;
    }
    e
}
