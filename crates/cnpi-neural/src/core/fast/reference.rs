//! candle as the reference: the fast trainer's gradients against autograd.
//!
//! For state0 (the shipped design) the candle model of `core::train` and
//! [`Model::gradient`] must agree on the loss and on every gradient, from
//! the same initial draw. The input and seq2seq variants share the LSTM
//! and decoder code; their own paths (the embedding as input, the encoder)
//! are checked against central finite differences.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::model::{Model, Variant};
use super::train::{FastOptions, learn_embeddings, train};
use crate::core::network::Network;
use crate::core::traces::traces;
use crate::core::train::{Trainable, initial_weights};
use crate::core::verify::verify_network;
use cnpi::program::{Behaviour, Slot};

fn behaviours() -> Vec<Behaviour> {
    vec![
        Behaviour {
            when_true: vec![Slot::A1, Slot::A2, Slot::SelfSlot],
            when_false: vec![Slot::A3],
        },
        Behaviour {
            when_true: vec![Slot::A2, Slot::A1],
            when_false: vec![Slot::A2, Slot::A1],
        },
        Behaviour {
            when_true: vec![Slot::Nop],
            when_false: vec![Slot::A1, Slot::A3],
        },
    ]
}

fn close(a: f32, b: f32, tolerance: f32) -> bool {
    (a - b).abs() <= tolerance * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn state0_gradients_equal_candle_autograd() {
    let definitions = behaviours();
    let weights = initial_weights(5, definitions.len(), &mut ChaCha8Rng::seed_from_u64(11));
    let candle = Trainable::new(weights.clone()).expect("candle builds the model");
    let fast = Model::from_weights(weights);
    for trace in traces(&definitions) {
        let loss = candle.loss(&trace).expect("candle computes the loss");
        let grads = loss.backward().expect("candle backpropagates");
        let mut grad = fast.zeros_like();
        let fast_loss = fast.gradient(&trace, &mut grad);
        let candle_loss = loss.to_scalar::<f32>().expect("a scalar loss");
        assert!(
            close(fast_loss, candle_loss, 1e-5),
            "{fast_loss} vs {candle_loss}"
        );
        for (var, (group, ours)) in candle.vars().iter().zip(grad.tensors_mut()) {
            let theirs: Vec<f32> = match grads.get(var) {
                Some(g) => g
                    .flatten_all()
                    .and_then(|g| g.to_vec1())
                    .expect("a gradient"),
                None => vec![0.0; ours.len()],
            };
            assert_eq!(theirs.len(), ours.len(), "{group:?}");
            for (a, b) in ours.iter().zip(&theirs) {
                assert!(close(*a, *b, 1e-4), "{group:?}: {a} vs {b} on {trace:?}");
            }
        }
    }
}

#[test]
fn state0_starts_from_the_draw_of_the_candle_trainer() {
    let definitions = behaviours();
    let refs: Vec<&Behaviour> = definitions.iter().collect();
    let model = Model::new(Variant::State0, 6, &refs, &mut ChaCha8Rng::seed_from_u64(4));
    let weights = initial_weights(6, 3, &mut ChaCha8Rng::seed_from_u64(4));
    assert_eq!(model.as_weights(), Some(&weights));
}

#[test]
fn input_and_seq2seq_gradients_match_finite_differences() {
    let definitions = behaviours();
    let refs: Vec<&Behaviour> = definitions.iter().collect();
    let all = traces(&definitions);
    for variant in [Variant::Input, Variant::Seq2seq] {
        let model = Model::new(variant, 3, &refs, &mut ChaCha8Rng::seed_from_u64(5));
        for trace in all.iter().step_by(3) {
            let loss = |m: &Model| f64::from(m.gradient(trace, &mut m.zeros_like()));
            let mut grad = model.zeros_like();
            model.gradient(trace, &mut grad);
            let mut probe = model.clone();
            let tensors = grad.tensors_mut().len();
            for t in 0..tensors {
                let analytic = grad.tensors_mut()[t].1.clone();
                for (k, &a) in analytic.iter().enumerate() {
                    let original = probe.tensors_mut()[t].1[k];
                    probe.tensors_mut()[t].1[k] = original + 1e-2;
                    let plus = loss(&probe);
                    probe.tensors_mut()[t].1[k] = original - 1e-2;
                    let minus = loss(&probe);
                    probe.tensors_mut()[t].1[k] = original;
                    let numeric = (plus - minus) / 2e-2;
                    assert!(
                        (numeric - f64::from(a)).abs() < 1e-2 * (1.0 + numeric.abs()),
                        "{variant} tensor {t} element {k}: {numeric} vs {a}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_fast_state0_core_verifies_on_the_inference_network() {
    let definitions = behaviours();
    let named: Vec<(&str, &Behaviour)> = definitions.iter().map(|b| ("x", b)).collect();
    let fitted = train(
        &named,
        &FastOptions::new(Variant::State0, 6, 2, 300),
        &mut |_| {},
    );
    assert!(fitted.verification.passed(), "{}", fitted.verification);
    let weights = fitted.model.as_weights().expect("a state0 model");
    let network = Network::new(weights.clone());
    assert_eq!(verify_network(&network, &named), fitted.verification);
    let again = train(
        &named,
        &FastOptions::new(Variant::State0, 6, 2, 300),
        &mut |_| {},
    );
    assert_eq!(again.model, fitted.model);
}

#[test]
fn learning_embeddings_keeps_the_core_and_old_rows_bit_for_bit() {
    let definitions = behaviours();
    let named: Vec<(&str, &Behaviour)> = definitions.iter().map(|b| ("x", b)).collect();
    let options = FastOptions::new(Variant::State0, 8, 3, 300);
    // A new name for a known behaviour: an embedding that works exists.
    let core = train(&named, &options, &mut |_| {}).model;
    let learned = learn_embeddings(&core, &named[1..2], &options, &mut |_| {});
    assert!(learned.verification.passed(), "{}", learned.verification);
    let mut old = learned.model.clone();
    old.weights.emb_h.truncate(core.weights.emb_h.len());
    old.weights.emb_c.truncate(core.weights.emb_c.len());
    assert_eq!(old, core);
    let all = [named[0], named[1], named[2], named[1]];
    assert!(verify_network(&learned.model, &all).passed());
}
